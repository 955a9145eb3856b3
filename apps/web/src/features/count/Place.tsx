// A position in a statistics table: the place name the server found (built-in index), the coordinates as its
// tooltip; the coordinates themselves only where no populated place is near.
import { Typography } from 'antd';

export function Place({
  address,
  lat,
  lon,
  testId,
}: {
  address: string | undefined;
  lat: number | null;
  lon: number | null;
  testId: string;
}) {
  if (lat === null || lon === null) return <Typography.Text type="secondary">-</Typography.Text>;
  const coords = `${lat.toFixed(5)}, ${lon.toFixed(5)}`;
  if (!address) return <span data-testid={testId}>{coords}</span>;
  return (
    <Typography.Text title={coords} ellipsis style={{ maxWidth: 260 }} data-testid={testId}>
      {address}
    </Typography.Text>
  );
}
