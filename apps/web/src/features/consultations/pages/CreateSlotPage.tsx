import { ComingSoon } from '../../../components/ComingSoon.tsx';

export default function CreateSlotPage() {
  return <ComingSoon title="Create Slot" />;
}
