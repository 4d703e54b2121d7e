import { Skeleton } from '@mantine/core';
import { lazy, Suspense, type ComponentProps, type ComponentType } from 'react';
import { Navigate, Route, Routes, useLocation, useParams } from 'react-router-dom';
import { NotFoundPage } from './errors/NotFoundPage';
import { DataModelEditRoute, DataModelRoute, HelperEditRoute } from '../screens/GlobalItems/lazy';
import {
  CorrelationRuleRoute,
  DetectionEditorRoute,
  DetectionRoute,
  NewCorrelationRuleRoute,
  NewDetectionRoute,
  NewScheduledQueryRoute,
  ScheduledQueryRoute,
} from '../screens/Detections/lazyEditor';
import { SchemaDetailsRoute, SchemaEditRoute } from '../screens/Schemas/lazy';
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
import { SCHEDULED_QUERY_ROUTES } from './routes';
import { SETTINGS_PERMISSIONS } from './shell/navigation';

/**
 * A screen loaded on its first visit, in a chunk of its own, with a skeleton meanwhile. The first page load
 * carries the routes and the sign-in guards only; the signed-in shell (AppLayout) and each screen come with
 * their routes, bringing their own libraries (charts, editors, YAML, forms). Sizes: npm run bench -- first-load.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any component's props pass through unchanged
function lazyPage<M extends Record<K, ComponentType<any>>, K extends keyof M>(load: () => Promise<M>, name: K): M[K] {
  const Page = lazy(async () => ({ default: (await load())[name] }));
  const Loaded = (props: ComponentProps<M[K]>) => (
    <Suspense fallback={<Skeleton h={400} radius="md" aria-label="Loading" />}>
      <Page {...props} />
    </Suspense>
  );
  return Loaded as unknown as M[K];
}

const AlertDetailsPage = lazyPage(() => import('../screens/Alerts/AlertDetailsPage'), 'AlertDetailsPage');
const AlertsPage = lazyPage(() => import('../screens/Alerts/AlertsPage'), 'AlertsPage');
const DestinationsPage = lazyPage(() => import('../screens/Destinations/DestinationsPage'), 'DestinationsPage');
const EditDestinationPage = lazyPage(() => import('../screens/Destinations/EditDestinationPage'), 'EditDestinationPage');
const NewDestinationPage = lazyPage(() => import('../screens/Destinations/NewDestinationPage'), 'NewDestinationPage');
const GeneralSettingsPage = lazyPage(() => import('../screens/GeneralSettings/GeneralSettingsPage'), 'GeneralSettingsPage');
const AppLayout = lazyPage(() => import('./shell/AppLayout'), 'AppLayout');
const HomePage = lazyPage(() => import('../screens/Home/HomePage'), 'HomePage');
const AddLogSourcePage = lazyPage(() => import('../screens/LogSources/AddLogSourcePage'), 'AddLogSourcePage');
const EditLogSourcePage = lazyPage(() => import('../screens/LogSources/EditLogSourcePage'), 'EditLogSourcePage');
const LogSourceDetailsPage = lazyPage(() => import('../screens/LogSources/LogSourceDetailsPage'), 'LogSourceDetailsPage');
const LogSourcesPage = lazyPage(() => import('../screens/LogSources/LogSourcesPage'), 'LogSourcesPage');
const LookupTablesPage = lazyPage(() => import('../screens/LookupTables/LookupTablesPage'), 'LookupTablesPage');
const LookupTableEditPage = lazyPage(() => import('../screens/LookupTables/LookupTableEditPage'), 'LookupTableEditPage');
const EnrichmentProvidersPage = lazyPage(
  () => import('../screens/LookupTables/EnrichmentProvidersPage'),
  'EnrichmentProvidersPage',
);
const EnrichmentProviderPage = lazyPage(() => import('../screens/LookupTables/EnrichmentProviderPage'), 'EnrichmentProviderPage');
const RoleFormPage = lazyPage(() => import('../screens/Roles/RoleFormPage'), 'RoleFormPage');
const RolesPage = lazyPage(() => import('../screens/Roles/RolesPage'), 'RolesPage');
const DetectionsPage = lazyPage(() => import('../screens/Detections/DetectionsPage'), 'DetectionsPage');
const PackPage = lazyPage(() => import('../screens/Packs/PackPage'), 'PackPage');
const PacksPage = lazyPage(() => import('../screens/Packs/PacksPage'), 'PacksPage');
const OAuthPage = lazyPage(() => import('../screens/SignIn/OAuthPage'), 'OAuthPage');
const PasswordForgotPage = lazyPage(() => import('../screens/SignIn/PasswordForgotPage'), 'PasswordForgotPage');
const PasswordResetPage = lazyPage(() => import('../screens/SignIn/PasswordResetPage'), 'PasswordResetPage');
const SignInPage = lazyPage(() => import('../screens/SignIn/SignInPage'), 'SignInPage');
const SupportSignInPage = lazyPage(() => import('../screens/SignIn/SignInPage'), 'SupportSignInPage');
const SupportPage = lazyPage(() => import('../screens/Support/SupportPage'), 'SupportPage');
const UsersPage = lazyPage(() => import('../screens/Users/UsersPage'), 'UsersPage');
const DataModelsPage = lazyPage(() => import('../screens/GlobalItems/GlobalItemsPage'), 'DataModelsPage');
const HelpersPage = lazyPage(() => import('../screens/GlobalItems/GlobalItemsPage'), 'HelpersPage');
const SchemasPage = lazyPage(() => import('../screens/Schemas/SchemasPage'), 'SchemasPage');

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
            <Route path={SCHEDULED_QUERY_ROUTES.details} element={<ScheduledQueryRoute edit={false} />} />
            <Route path={SCHEDULED_QUERY_ROUTES.edit} element={<ScheduledQueryRoute edit />} />
            <Route path={SCHEDULED_QUERY_ROUTES.list} element={<Navigate to={DETECTION_ROUTES.list} replace />} />
            <Route path={DETECTION_EDITOR_ROUTES.rules} element={<Navigate to={DETECTION_ROUTES.list} replace />} />
            <Route path={DETECTION_EDITOR_ROUTES.policies} element={<Navigate to={DETECTION_ROUTES.list} replace />} />
          </Route>
          <Route element={<RequirePermissions permissions={['RuleModify', 'PolicyModify']} />}>
            <Route path={DETECTION_EDITOR_ROUTES.new} element={<NewDetectionRoute />} />
            <Route path={CORRELATION_RULE_ROUTES.new} element={<NewCorrelationRuleRoute />} />
            <Route path={SCHEDULED_QUERY_ROUTES.new} element={<NewScheduledQueryRoute />} />
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
            <Route path={SEARCH_ROUTES.dashboardWidgetSearch} element={<SearchRoute view="dashboard-widget" />} />
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
