// /index/home: live monitoring (main:monitor). The foundation shows the map; the monitoring area adds the
// device list, markers and live updates.
import { BaseMap } from '../../map/BaseMap.tsx';

export default function HomePage() {
  return (
    <div style={{ height: '100%' }} data-testid="home-page">
      <BaseMap />
    </div>
  );
}
