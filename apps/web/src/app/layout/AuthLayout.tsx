import { Outlet } from 'react-router';
import { AuthFrame } from '../../components/AuthFrame/AuthFrame.tsx';

/** The auth screens (sign-up, activation, password reset) in the sign-in screen's frame. */
export function AuthLayout() {
  return (
    <AuthFrame>
      <Outlet />
    </AuthFrame>
  );
}
