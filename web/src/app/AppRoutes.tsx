import { Navigate, Route, Routes } from 'react-router-dom';
import { AlertDetailsPage } from '../pages/Alerts/AlertDetailsPage';
import { AlertsPage } from '../pages/Alerts/AlertsPage';
import { GeneralSettingsPage } from '../pages/GeneralSettings/GeneralSettingsPage';
import { HomePage } from '../pages/Home/HomePage';
import { AddLogSourcePage } from '../pages/LogSources/AddLogSourcePage';
import { EditLogSourcePage } from '../pages/LogSources/EditLogSourcePage';
import { LogSourceDetailsPage } from '../pages/LogSources/LogSourceDetailsPage';
import { LogSourcesPage } from '../pages/LogSources/LogSourcesPage';
import { NotFoundPage } from '../pages/NotFound/NotFoundPage';
import { RoleFormPage } from '../pages/Roles/RoleFormPage';
import { RolesPage } from '../pages/Roles/RolesPage';
import { SchemaDetailsRoute, SchemaEditRoute, SchemasPage } from '../pages/Schemas/routes';
import { OAuthPage } from '../pages/OAuth/OAuthPage';
import { PasswordForgotPage } from '../pages/PasswordForgot/PasswordForgotPage';
import { PasswordResetPage } from '../pages/PasswordReset/PasswordResetPage';
import { SignInPage } from '../pages/SignIn/SignInPage';
import { SupportSignInPage } from '../pages/SupportSignIn/SupportSignInPage';
import { SupportPage } from '../pages/Support/SupportPage';
import { UsersPage } from '../pages/Users/UsersPage';
import { SIGN_IN_PATH, SUPPORT_PATH } from './constants';
import { AnonymousOnly, RequireAuth } from './guards';
import { RequirePermissions } from './RequirePermissions';
import { AppLayout } from './shell/AppLayout';

/**
 * Anonymous-only routes, then everything else behind sign-in: an unknown path is an authenticated route too,
 * so a deep link works after signing in and the Not Found page shows inside the shell.
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<AnonymousOnly />}>
        <Route path={SIGN_IN_PATH} element={<SignInPage />} />
        <Route path="/support-sign-in/" element={<SupportSignInPage />} />
        <Route path="/password-forgot/" element={<PasswordForgotPage />} />
        <Route path="/password-reset/" element={<PasswordResetPage />} />
        <Route path="/oauth/" element={<OAuthPage />} />
      </Route>
      <Route element={<RequireAuth />}>
        <Route element={<AppLayout />}>
          <Route index element={<HomePage />} />
          <Route path="/settings/" element={<Navigate to="/settings/general/" replace />} />
          <Route element={<RequirePermissions permissions={['GeneralSettingsRead', 'GeneralSettingsModify']} />}>
            <Route path="/settings/general/" element={<GeneralSettingsPage />} />
          </Route>
          <Route element={<RequirePermissions permissions={['UserRead', 'UserModify']} />}>
            <Route path="/settings/users/" element={<UsersPage />} />
            <Route path="/settings/roles/" element={<RolesPage />} />
            <Route path="/settings/roles/new/" element={<RoleFormPage />} />
            <Route path="/settings/roles/:id/edit/" element={<RoleFormPage />} />
            <Route path="/settings/roles/:id/" element={<Navigate to="/settings/roles/" replace />} />
          </Route>
          <Route element={<RequirePermissions permissions={['LogSourceRead', 'LogSourceModify']} />}>
            <Route path="/configure/log-sources/" element={<LogSourcesPage />} />
            <Route path="/configure/log-sources/:id/" element={<LogSourceDetailsPage />} />
            <Route path="/configure/schemas/" element={<SchemasPage />} />
            <Route path="/configure/schemas/:name/" element={<SchemaDetailsRoute />} />
          </Route>
          <Route element={<RequirePermissions permissions={['LogSourceModify']} />}>
            <Route path="/configure/log-sources/add-new-source/" element={<AddLogSourcePage />} />
            <Route path="/configure/log-sources/:id/edit/" element={<EditLogSourcePage />} />
            <Route path="/configure/schemas/new/" element={<SchemaEditRoute />} />
            <Route path="/configure/schemas/:name/edit/" element={<SchemaEditRoute />} />
          </Route>
          <Route element={<RequirePermissions permissions={['AlertRead', 'AlertModify']} />}>
            <Route path="/alerts-and-errors/" element={<AlertsPage />} />
            <Route path="/alerts-and-errors/:id/" element={<AlertDetailsPage />} />
          </Route>
          <Route path={SUPPORT_PATH} element={<SupportPage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Route>
    </Routes>
  );
}
