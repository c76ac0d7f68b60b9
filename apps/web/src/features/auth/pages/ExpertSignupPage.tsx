import { ComingSoon } from '../../../components/ComingSoon.tsx';

export default function ExpertSignupPage() {
  return <ComingSoon title="Expert sign up" />;
}
