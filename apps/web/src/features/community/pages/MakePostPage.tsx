import { ComingSoon } from '../../../components/ComingSoon.tsx';

export default function MakePostPage() {
  return <ComingSoon title="Make Post" />;
}
