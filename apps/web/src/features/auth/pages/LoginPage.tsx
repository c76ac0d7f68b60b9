import { ComingSoon } from '../../../components/ComingSoon.tsx';

export default function LoginPage() {
  return <ComingSoon title="Login" />;
}
