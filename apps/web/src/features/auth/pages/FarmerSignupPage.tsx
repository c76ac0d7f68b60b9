import { ComingSoon } from '../../../components/ComingSoon.tsx';

export default function FarmerSignupPage() {
  return <ComingSoon title="Sign up" />;
}
