import { Route, Routes } from 'react-router-dom';
import { SplashScreen } from '../components/SplashScreen';
import { useAuth } from '../lib/auth/AuthContext';
import { HomePage } from '../pages/Home/HomePage';
import { NotFoundPage } from '../pages/NotFound/NotFoundPage';
import { SignInPage } from '../pages/SignIn/SignInPage';
import { SIGN_IN_PATH } from './constants';
import { AnonymousOnly, RequireAuth } from './guards';
import { AppLayout } from './shell/AppLayout';

/** Unknown paths: inside the application shell for a signed-in user, on their own otherwise. */
function NotFoundRoute() {
  const { state } = useAuth();
  if (state.status === 'loading') return <SplashScreen />;
  if (state.status === 'anonymous') return <NotFoundPage showBackToHome={false} fullScreen />;
  return (
    <AppLayout>
      <NotFoundPage showBackToHome />
    </AppLayout>
  );
}

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<AnonymousOnly />}>
        <Route path={SIGN_IN_PATH} element={<SignInPage />} />
      </Route>
      <Route element={<RequireAuth />}>
        <Route element={<AppLayout />}>
          <Route index element={<HomePage />} />
        </Route>
      </Route>
      <Route path="*" element={<NotFoundRoute />} />
    </Routes>
  );
}
