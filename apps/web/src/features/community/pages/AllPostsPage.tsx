import { ComingSoon } from '../../../components/ComingSoon.tsx';

export default function AllPostsPage() {
  return <ComingSoon title="All Posts" />;
}
