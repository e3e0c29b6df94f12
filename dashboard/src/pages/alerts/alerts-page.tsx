import { PageHeader } from '../../ui/page';

export default function Placeholder() {
  return <PageHeader title="Coming" />;
}
