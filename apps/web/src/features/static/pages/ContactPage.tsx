import { ComingSoon } from '../../../components/ComingSoon.tsx';

export default function ContactPage() {
  return <ComingSoon title="Contact us" />;
}
