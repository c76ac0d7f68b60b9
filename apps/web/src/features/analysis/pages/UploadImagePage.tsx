import { ComingSoon } from '../../../components/ComingSoon.tsx';

export default function UploadImagePage() {
  return <ComingSoon title="Upload Image" />;
}
