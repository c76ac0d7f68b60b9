import { ComingSoon } from '../../../components/ComingSoon.tsx';

export default function VerifyEmailPage() {
  return <ComingSoon title="Verify Email" />;
}
