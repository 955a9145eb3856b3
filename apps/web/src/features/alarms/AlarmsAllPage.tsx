// /index/alarmsAll: every alarm (read and unread) of the devices in reach.
import { AlarmsView } from './AlarmsPage.tsx';

export default function AlarmsAllPage() {
  return <AlarmsView scope="alarmsAll" />;
}
