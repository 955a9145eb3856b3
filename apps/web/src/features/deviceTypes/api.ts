// Device types as the web reads them (client state devicesConfig, spec §3): every configuration keyed by
// deviceType from /api/deviceType/findAll, the seeded catalogue until it has loaded.
import { type DeviceFeature, type DeviceTypeConfig, hasFeature, SEED_DEVICE_TYPES } from '@carhere/domain';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client.ts';

export interface StoredDeviceType extends DeviceTypeConfig {
  edited: boolean;
  updatedAt: string | null;
}

export const DEVICE_TYPES_KEY = ['deviceTypes'] as const;

export async function findAllDeviceTypes(signal?: AbortSignal): Promise<StoredDeviceType[]> {
  const byCode = await api<Record<string, StoredDeviceType>>('/deviceType/findAll', {}, { signal });
  return Object.values(byCode).sort((a, b) => a.deviceType - b.deviceType);
}

export function saveDeviceType(config: DeviceTypeConfig) {
  return api<StoredDeviceType>('/deviceType/addOrUpdate', config);
}

/** Every configuration (the seeds while loading). */
export function useDeviceTypes(): readonly DeviceTypeConfig[] {
  const q = useQuery({
    queryKey: DEVICE_TYPES_KEY,
    queryFn: ({ signal }) => findAllDeviceTypes(signal),
    staleTime: 30_000,
  });
  return q.data ?? SEED_DEVICE_TYPES;
}

/** Whether a device of this model code has a feature, by its type's configuration. */
export function useHasFeature(code: number | null | undefined, feature: DeviceFeature): boolean {
  const types = useDeviceTypes();
  return code == null ? true : hasFeature(types, code, feature);
}
