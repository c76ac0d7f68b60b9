import { ComingSoon } from '../../../components/ComingSoon.tsx';

export default function SlotsPage() {
  return <ComingSoon title="Slots" />;
}
