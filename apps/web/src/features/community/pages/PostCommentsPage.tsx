import { ComingSoon } from '../../../components/ComingSoon.tsx';

export default function PostCommentsPage() {
  return <ComingSoon title="Post comments" />;
}
