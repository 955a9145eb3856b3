// Device-type configurations: the seeded catalogue of the domain overlaid with the rows admins saved.
import {
  checkCommandFeature,
  checkCommandParameters,
  type DeviceFeatures,
  type DeviceTypeConfig,
  type DeviceTypeMenuGroup,
  deviceTypeOf,
  SEED_DEVICE_TYPES,
} from '@carhere/domain';
import type { ColumnType, Generated, Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { badRequest } from '../../http/errors.ts';

export interface DeviceTypesTable {
  device_type: number;
  name: string;
  protocol_type: Generated<number>;
  icon_type: Generated<number>;
  features: DeviceFeatures;
  menu: readonly DeviceTypeMenuGroup[];
  protocol_menus: Generated<Readonly<Record<string, readonly DeviceTypeMenuGroup[]>>>;
  updated_by: string | null;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

declare module '../../db/schema.ts' {
  interface Database {
    device_types: DeviceTypesTable;
  }
}

export interface StoredDeviceType extends DeviceTypeConfig {
  /** True when an admin saved it (false: the seeded catalogue). */
  readonly edited: boolean;
  readonly updatedAt: string | null;
}

type Row = {
  device_type: number;
  name: string;
  protocol_type: number;
  icon_type: number;
  features: DeviceFeatures;
  menu: readonly DeviceTypeMenuGroup[];
  protocol_menus: Readonly<Record<string, readonly DeviceTypeMenuGroup[]>>;
  updated_at: Date;
};

function fromRow(r: Row): StoredDeviceType {
  return {
    deviceType: r.device_type,
    name: r.name,
    protocolType: r.protocol_type,
    iconType: r.icon_type,
    features: { ...deviceTypeOf(SEED_DEVICE_TYPES, r.device_type).features, ...r.features },
    menu: r.menu,
    protocolMenus: r.protocol_menus ?? {},
    edited: true,
    updatedAt: new Date(r.updated_at).toISOString(),
  };
}

/** Every configuration: the seeds (replaced by saved rows) and the types admins added, by code. */
export async function loadDeviceTypes(db: Kysely<Database>): Promise<StoredDeviceType[]> {
  const rows = (await db.selectFrom('device_types').selectAll().execute()) as unknown as Row[];
  const saved = new Map(rows.map((r) => [r.device_type, fromRow(r)]));
  const all: StoredDeviceType[] = SEED_DEVICE_TYPES.map(
    (seed) => saved.get(seed.deviceType) ?? { ...seed, edited: false, updatedAt: null },
  );
  for (const [code, type] of saved) if (!all.some((t) => t.deviceType === code)) all.push(type);
  return all.sort((a, b) => a.deviceType - b.deviceType);
}

/** The configuration of one model code (its seed when none is saved). */
export async function loadDeviceType(db: Kysely<Database>, code: number): Promise<StoredDeviceType> {
  const row = (await db.selectFrom('device_types').selectAll().where('device_type', '=', code).executeTakeFirst()) as
    | Row
    | undefined;
  return row ? fromRow(row) : { ...deviceTypeOf(SEED_DEVICE_TYPES, code), edited: false, updatedAt: null };
}

export async function saveDeviceType(
  db: Kysely<Database>,
  config: DeviceTypeConfig,
  userId: string,
): Promise<StoredDeviceType> {
  const values = {
    device_type: config.deviceType,
    name: config.name,
    protocol_type: config.protocolType,
    icon_type: config.iconType,
    features: JSON.stringify(config.features) as unknown as DeviceFeatures,
    menu: JSON.stringify(config.menu) as unknown as readonly DeviceTypeMenuGroup[],
    protocol_menus: JSON.stringify(config.protocolMenus) as unknown as Record<string, DeviceTypeMenuGroup[]>,
    updated_by: userId,
    updated_at: new Date(),
  };
  await db
    .insertInto('device_types')
    .values(values)
    .onConflict((oc) => oc.column('device_type').doUpdateSet(values))
    .execute();
  return loadDeviceType(db, config.deviceType);
}

/** Every template of a type's menus (its own protocol menus included). */
export function menuTemplates(type: DeviceTypeConfig): string[] {
  return [type.menu, ...Object.values(type.protocolMenus)].flatMap((m) =>
    m.flatMap((g) => g.commands.map((c) => c.template)),
  );
}

/**
 * Spec §8 and §5 on the server, for one device type: a command needing a feature the type lacks is refused
 * ('The device does not support this feature!'); ruled parameters (time mode, power-on time, interval, mixed
 * mode) are checked by the domain's rules.
 */
export function assertCommandAllowed(type: DeviceTypeConfig, content: string): void {
  const feature = checkCommandFeature(type, content);
  if (!feature.ok) throw badRequest(feature.message);
  const params = checkCommandParameters(content, menuTemplates(type));
  if (!params.ok) throw badRequest(params.message, params.params);
}

/** Spec §8 for a screen's feature (tyres, battery): refused when the device's type lacks it. */
export async function assertFeature(
  db: Kysely<Database>,
  deviceType: number,
  feature: keyof DeviceFeatures,
): Promise<void> {
  const type = await loadDeviceType(db, deviceType);
  if (!type.features[feature]) throw badRequest('device.unsupported');
}

/** The same checks as assertCommandAllowed, as a message key (for the per-device rows of a batch). */
export function commandRefusal(type: DeviceTypeConfig, content: string): string | undefined {
  const feature = checkCommandFeature(type, content);
  if (!feature.ok) return feature.message;
  const params = checkCommandParameters(content, menuTemplates(type));
  return params.ok ? undefined : params.message;
}
