import { ComingSoon } from '../../../components/ComingSoon.tsx';

export default function MyBookingsPage() {
  return <ComingSoon title="My Bookings" />;
}
