import { ComingSoon } from '../../../components/ComingSoon.tsx';

export default function ModelTrainingPage() {
  return <ComingSoon title="Model Training" />;
}
