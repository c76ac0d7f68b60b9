import { ComingSoon } from '../../../components/ComingSoon.tsx';

export default function EducationResourcesPage() {
  return <ComingSoon title="Education Resources" />;
}
