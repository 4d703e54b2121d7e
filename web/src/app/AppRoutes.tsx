import { Navigate, Route, Routes, useLocation, useParams } from 'react-router-dom';
import { AlertDetailsPage } from '../screens/Alerts/AlertDetailsPage';
import { AlertsPage } from '../screens/Alerts/AlertsPage';
import { DestinationsPage } from '../screens/Destinations/DestinationsPage';
import { EditDestinationPage } from '../screens/Destinations/EditDestinationPage';
import { NewDestinationPage } from '../screens/Destinations/NewDestinationPage';
import { GeneralSettingsPage } from '../screens/GeneralSettings/GeneralSettingsPage';
import { HomePage } from '../screens/Home/HomePage';
import { AddLogSourcePage } from '../screens/LogSources/AddLogSourcePage';
import { EditLogSourcePage } from '../screens/LogSources/EditLogSourcePage';
import { LogSourceDetailsPage } from '../screens/LogSources/LogSourceDetailsPage';
import { LogSourcesPage } from '../screens/LogSources/LogSourcesPage';
import { LookupTablesPage } from '../screens/LookupTables/LookupTablesPage';
import { LookupTableEditPage } from '../screens/LookupTables/LookupTableEditPage';
import { EnrichmentProvidersPage } from '../screens/LookupTables/EnrichmentProvidersPage';
import { EnrichmentProviderPage } from '../screens/LookupTables/EnrichmentProviderPage';
import { NotFoundPage } from './errors/NotFoundPage';
import { RoleFormPage } from '../screens/Roles/RoleFormPage';
import { RolesPage } from '../screens/Roles/RolesPage';
import { DataModelEditRoute, DataModelRoute, DataModelsPage } from '../screens/DataModels/lazy';
import { DetectionsPage } from '../screens/Detections/DetectionsPage';
import { HelperEditRoute, HelpersPage } from '../screens/Helpers/lazy';
import { PackPage } from '../screens/Packs/PackPage';
import { PacksPage } from '../screens/Packs/PacksPage';
import {
  CorrelationRuleRoute,
  DetectionEditorRoute,
  DetectionRoute,
  NewCorrelationRuleRoute,
  NewDetectionRoute,
} from '../screens/Detections/lazyEditor';
import { SchemaDetailsRoute, SchemaEditRoute, SchemasPage } from '../screens/Schemas/lazy';
import { OAuthPage } from '../screens/SignIn/OAuthPage';
import { PasswordForgotPage } from '../screens/SignIn/PasswordForgotPage';
import { PasswordResetPage } from '../screens/SignIn/PasswordResetPage';
import { SignInPage, SupportSignInPage } from '../screens/SignIn/SignInPage';
import { SupportPage } from '../screens/Support/SupportPage';
import { UsersPage } from '../screens/Users/UsersPage';
import { InlineFilterProvider } from '../screens/Detections/useInlineFilterProvider';
import {
  DataExplorerRoute,
  IndicatorSearchRoute,
  SavedSearchesRoute,
  SearchHistoryRoute,
  SearchRoute,
} from '../screens/Search/lazy';
import { AnonymousOnly, RequireAuth } from './guards';
import { RequirePermissions } from './RequirePermissions';
import {
  ALERT_ROUTES,
  DETECTION_EDITOR_ROUTES,
  CORRELATION_RULE_ROUTES,
  DESTINATION_ROUTES,
  alertPath,
  LOG_SOURCE_ROUTES,
  LOOKUP_TABLE_ROUTES,
  ENRICHMENT_PROVIDER_ROUTES,
  SCHEMA_ROUTES,
  SECTION_PATHS,
  SETTINGS_ROUTES,
  SIGN_IN_ROUTES,
  SUPPORT_PATH,
} from './routes';
import { DATA_MODEL_ROUTES, DETECTION_ROUTES, HELPER_ROUTES, PACK_ROUTES } from './routes';
import { SEARCH_ROUTES } from './routes';
import { AppLayout } from './shell/AppLayout';
import { SETTINGS_PERMISSIONS } from './shell/navigation';

/** An older alert address (/alerts/, /alerts/{id}/) leads to its page under /alerts-and-errors/, keeping the query. */
function AlertRedirect() {
  const { id } = useParams();
  const { search, hash } = useLocation();
  return <Navigate to={{ pathname: id === undefined ? ALERT_ROUTES.list : alertPath(id), search, hash }} replace />;
}

/**
 * Anonymous-only routes, then everything else behind sign-in: an unknown path is an authenticated route too,
 * so a deep link works after signing in and the Not Found page shows inside the shell.
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<AnonymousOnly />}>
        <Route path={SIGN_IN_ROUTES.signIn} element={<SignInPage />} />
        <Route path={SIGN_IN_ROUTES.supportSignIn} element={<SupportSignInPage />} />
        <Route path={SIGN_IN_ROUTES.passwordForgot} element={<PasswordForgotPage />} />
        <Route path={SIGN_IN_ROUTES.passwordReset} element={<PasswordResetPage />} />
        <Route path={SIGN_IN_ROUTES.oauth} element={<OAuthPage />} />
      </Route>
      <Route element={<RequireAuth />}>
        <Route
          element={
            <InlineFilterProvider>
              <AppLayout />
            </InlineFilterProvider>
          }
        >
          <Route index element={<HomePage />} />
          <Route path={SECTION_PATHS.settings} element={<Navigate to={SETTINGS_ROUTES.general} replace />} />
          <Route element={<RequirePermissions permissions={SETTINGS_PERMISSIONS.general} />}>
            <Route path={SETTINGS_ROUTES.general} element={<GeneralSettingsPage />} />
          </Route>
          <Route element={<RequirePermissions permissions={SETTINGS_PERMISSIONS.users} />}>
            <Route path={SETTINGS_ROUTES.users} element={<UsersPage />} />
            <Route path={SETTINGS_ROUTES.roles} element={<RolesPage />} />
            <Route path={SETTINGS_ROUTES.newRole} element={<RoleFormPage />} />
            <Route path={SETTINGS_ROUTES.editRole} element={<RoleFormPage />} />
            <Route path={SETTINGS_ROUTES.role} element={<Navigate to={SETTINGS_ROUTES.roles} replace />} />
          </Route>
          <Route element={<RequirePermissions permissions={['LogSourceRead', 'LogSourceModify']} />}>
            <Route path={LOG_SOURCE_ROUTES.list} element={<LogSourcesPage />} />
            <Route path={LOG_SOURCE_ROUTES.details} element={<LogSourceDetailsPage />} />
            <Route path={LOG_SOURCE_ROUTES.schemas} element={<LogSourceDetailsPage />} />
            <Route path={SCHEMA_ROUTES.list} element={<SchemasPage />} />
            <Route path={SCHEMA_ROUTES.details} element={<SchemaDetailsRoute />} />
          </Route>
          <Route element={<RequirePermissions permissions={['LogSourceModify']} />}>
            <Route path={LOG_SOURCE_ROUTES.add} element={<AddLogSourcePage />} />
            <Route path={LOG_SOURCE_ROUTES.edit} element={<EditLogSourcePage />} />
            <Route path={SCHEMA_ROUTES.new} element={<SchemaEditRoute />} />
            <Route path={SCHEMA_ROUTES.edit} element={<SchemaEditRoute />} />
          </Route>
          <Route element={<RequirePermissions permissions={['LookupRead', 'LookupModify']} />}>
            <Route path={LOOKUP_TABLE_ROUTES.list} element={<LookupTablesPage />} />
            <Route path={LOOKUP_TABLE_ROUTES.edit} element={<LookupTableEditPage />} />
            <Route path={ENRICHMENT_PROVIDER_ROUTES.list} element={<EnrichmentProvidersPage />} />
            <Route path={ENRICHMENT_PROVIDER_ROUTES.details} element={<EnrichmentProviderPage />} />
          </Route>
          <Route element={<RequirePermissions permissions={['LookupModify']} />}>
            <Route path={LOOKUP_TABLE_ROUTES.new} element={<LookupTableEditPage />} />
            <Route path={ENRICHMENT_PROVIDER_ROUTES.new} element={<LookupTableEditPage forProvider />} />
            <Route path={ENRICHMENT_PROVIDER_ROUTES.edit} element={<LookupTableEditPage forProvider />} />
          </Route>
          <Route element={<RequirePermissions permissions={['AlertRead', 'AlertModify']} />}>
            <Route path={ALERT_ROUTES.list} element={<AlertsPage />} />
            <Route path={ALERT_ROUTES.details} element={<AlertDetailsPage />} />
            <Route path={ALERT_ROUTES.section} element={<AlertDetailsPage />} />
            <Route path={ALERT_ROUTES.shortList} element={<AlertRedirect />} />
            <Route path={ALERT_ROUTES.shortDetails} element={<AlertRedirect />} />
          </Route>
          <Route element={<RequirePermissions permissions={['DestinationRead', 'DestinationModify']} />}>
            <Route path={DESTINATION_ROUTES.list} element={<DestinationsPage />} />
            <Route path={DESTINATION_ROUTES.edit} element={<EditDestinationPage />} />
          </Route>
          <Route element={<RequirePermissions permissions={['DestinationModify']} />}>
            <Route path={DESTINATION_ROUTES.new} element={<NewDestinationPage />} />
          </Route>
          <Route element={<RequirePermissions permissions={['RuleRead', 'RuleModify', 'PolicyRead', 'PolicyModify']} />}>
            <Route path={DETECTION_EDITOR_ROUTES.rule} element={<DetectionRoute />} />
            <Route path={DETECTION_EDITOR_ROUTES.policy} element={<DetectionRoute />} />
            <Route path={DETECTION_EDITOR_ROUTES.editRule} element={<DetectionEditorRoute />} />
            <Route path={DETECTION_EDITOR_ROUTES.editPolicy} element={<DetectionEditorRoute />} />
            <Route path={CORRELATION_RULE_ROUTES.details} element={<CorrelationRuleRoute edit={false} />} />
            <Route path={CORRELATION_RULE_ROUTES.edit} element={<CorrelationRuleRoute edit />} />
            <Route path={CORRELATION_RULE_ROUTES.list} element={<Navigate to={DETECTION_ROUTES.list} replace />} />
            <Route path={DETECTION_EDITOR_ROUTES.rules} element={<Navigate to={DETECTION_ROUTES.list} replace />} />
            <Route path={DETECTION_EDITOR_ROUTES.policies} element={<Navigate to={DETECTION_ROUTES.list} replace />} />
          </Route>
          <Route element={<RequirePermissions permissions={['RuleModify', 'PolicyModify']} />}>
            <Route path={DETECTION_EDITOR_ROUTES.new} element={<NewDetectionRoute />} />
            <Route path={CORRELATION_RULE_ROUTES.new} element={<NewCorrelationRuleRoute />} />
          </Route>
          <Route element={<RequirePermissions permissions={['RuleRead', 'RuleModify', 'PolicyRead', 'PolicyModify']} />}>
            <Route path={DETECTION_ROUTES.list} element={<DetectionsPage />} />
            <Route path={HELPER_ROUTES.list} element={<HelpersPage />} />
            <Route path={DATA_MODEL_ROUTES.list} element={<DataModelsPage />} />
            <Route path={DATA_MODEL_ROUTES.details} element={<DataModelRoute />} />
            <Route path={PACK_ROUTES.list} element={<PacksPage />} />
            <Route path={PACK_ROUTES.details} element={<PackPage />} />
          </Route>
          <Route element={<RequirePermissions permissions={['RuleRead', 'RuleModify']} />}>
            <Route path={HELPER_ROUTES.edit} element={<HelperEditRoute />} />
          </Route>
          <Route element={<RequirePermissions permissions={['RuleModify']} />}>
            <Route path={HELPER_ROUTES.new} element={<HelperEditRoute />} />
            <Route path={DATA_MODEL_ROUTES.new} element={<DataModelEditRoute />} />
            <Route path={DATA_MODEL_ROUTES.edit} element={<DataModelEditRoute />} />
          </Route>
          <Route element={<RequirePermissions permissions={['DataAnalyticsRead', 'DataAnalyticsModify']} />}>
            <Route path={SEARCH_ROUTES.search} element={<SearchRoute />} />
            <Route path={SEARCH_ROUTES.alertEventsSearch} element={<SearchRoute view="alert-events" />} />
            <Route path={SEARCH_ROUTES.keyValueSearch} element={<SearchRoute view="key-value" />} />
            <Route path={SEARCH_ROUTES.logTypeSearch} element={<SearchRoute view="log-type" />} />
            <Route path={SEARCH_ROUTES.savedSearches} element={<SavedSearchesRoute />} />
            <Route path={SEARCH_ROUTES.searchHistory} element={<SearchHistoryRoute />} />
            <Route path={SEARCH_ROUTES.dataExplorer} element={<DataExplorerRoute />} />
            <Route path={SEARCH_ROUTES.indicatorSearch} element={<IndicatorSearchRoute />} />
          </Route>
          <Route path={SUPPORT_PATH} element={<SupportPage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Route>
    </Routes>
  );
}
