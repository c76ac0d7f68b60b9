import { ComingSoon } from '../../../components/ComingSoon.tsx';

export default function TermsPage() {
  return <ComingSoon title="Terms" />;
}
