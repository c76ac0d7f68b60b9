import { ComingSoon } from '../../../components/ComingSoon.tsx';

export default function AnalysisHistoryPage() {
  return <ComingSoon title="My Analyses" />;
}
