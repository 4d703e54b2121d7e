import { Navigate, Route, Routes } from 'react-router-dom';
import { AlertDetailsPage } from '../screens/Alerts/AlertDetailsPage';
import { AlertsPage } from '../screens/Alerts/AlertsPage';
import { GeneralSettingsPage } from '../screens/GeneralSettings/GeneralSettingsPage';
import { HomePage } from '../screens/Home/HomePage';
import { AddLogSourcePage } from '../screens/LogSources/AddLogSourcePage';
import { EditLogSourcePage } from '../screens/LogSources/EditLogSourcePage';
import { LogSourceDetailsPage } from '../screens/LogSources/LogSourceDetailsPage';
import { LogSourcesPage } from '../screens/LogSources/LogSourcesPage';
import { NotFoundPage } from './errors/NotFoundPage';
import { RoleFormPage } from '../screens/Roles/RoleFormPage';
import { RolesPage } from '../screens/Roles/RolesPage';
import { SchemaDetailsRoute, SchemaEditRoute, SchemasPage } from '../screens/Schemas/lazy';
import { OAuthPage } from '../screens/SignIn/OAuthPage';
import { PasswordForgotPage } from '../screens/SignIn/PasswordForgotPage';
import { PasswordResetPage } from '../screens/SignIn/PasswordResetPage';
import { SignInPage } from '../screens/SignIn/SignInPage';
import { SupportSignInPage } from '../screens/SignIn/SupportSignInPage';
import { SupportPage } from '../screens/Support/SupportPage';
import { UsersPage } from '../screens/Users/UsersPage';
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
