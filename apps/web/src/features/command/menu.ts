// The command menu of a device, read from its device type's data (domain deviceTypes; admins edit them on
// device/deviceConfig). Until an admin edits a type, the menus are the seeded catalogue: the groups this
// file hard-coded before (legacyMenus.fixture.json keeps that output and command.test.ts compares).
import {
  type CommandEntry,
  type DeviceTypeCommand,
  type DeviceTypeConfig,
  deviceTypeMenu,
  menuCommandById,
  SEED_COMMAND_GROUPS,
  SEED_DEVICE_TYPES,
} from '@carhere/domain';

export const COMMAND_GROUPS = SEED_COMMAND_GROUPS;
export type CommandGroup = string;

type MenuDevice = { deviceProtocol: number; protocolType?: number };

/** The group names of a device's menu. */
export function groupsFor(device: MenuDevice, types: readonly DeviceTypeConfig[] = SEED_DEVICE_TYPES): CommandGroup[] {
  return deviceTypeMenu(types, device).map((g) => g.group);
}

/** A menu item as a catalogue entry: its catalogue label unless the type gives its own, its type's template. */
export function menuEntry(item: DeviceTypeCommand): CommandEntry {
  const known = menuCommandById(item.id);
  const label = item.label ?? {};
  const base = known ?? { id: item.id, template: item.template, cn: item.id, en: item.id, source: 'carhere' as const };
  const own = Object.fromEntries(Object.entries(label).filter(([, v]) => typeof v === 'string' && v.trim() !== ''));
  return { ...base, ...own, template: item.template };
}

/** The device's menu: its groups with their entries. */
export function commandMenu(
  device: MenuDevice,
  types: readonly DeviceTypeConfig[] = SEED_DEVICE_TYPES,
): { group: CommandGroup; commands: CommandEntry[] }[] {
  return deviceTypeMenu(types, device).map((g) => ({ group: g.group, commands: g.commands.map(menuEntry) }));
}
