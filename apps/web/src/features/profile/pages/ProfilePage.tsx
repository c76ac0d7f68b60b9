import { ComingSoon } from '../../../components/ComingSoon.tsx';

export default function ProfilePage() {
  return <ComingSoon title="Profile" />;
}
