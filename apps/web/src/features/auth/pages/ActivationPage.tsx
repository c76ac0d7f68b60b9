import { ComingSoon } from '../../../components/ComingSoon.tsx';

export default function ActivationPage() {
  return <ComingSoon title="Activation" />;
}
