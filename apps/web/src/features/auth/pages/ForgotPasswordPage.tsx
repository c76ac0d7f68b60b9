import { ComingSoon } from '../../../components/ComingSoon.tsx';

export default function ForgotPasswordPage() {
  return <ComingSoon title="Forgot Password" />;
}
