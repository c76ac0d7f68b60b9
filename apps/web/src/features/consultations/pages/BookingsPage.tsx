import { ComingSoon } from '../../../components/ComingSoon.tsx';

export default function BookingsPage() {
  return <ComingSoon title="Bookings" />;
}
