import { ComingSoon } from '../../../components/ComingSoon.tsx';

export default function ConfirmPasswordResetPage() {
  return <ComingSoon title="Confirm Password Reset" />;
}
