// One command menu of a device type: groups of commands, each with its label and content template (the form
// fields follow the template's placeholders). Commands come from the catalogue (MENU_COMMANDS) or are the
// admin's own (an id, a label and a template).
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  type DeviceTypeCommand,
  type DeviceTypeMenuGroup,
  labelIn,
  MENU_COMMANDS,
  menuCommandById,
} from '@carhere/domain';
import { Button, Card, Input, Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

export function MenuEditor({
  menu,
  onChange,
}: {
  menu: readonly DeviceTypeMenuGroup[];
  onChange: (menu: DeviceTypeMenuGroup[]) => void;
}) {
  const { t, i18n } = useTranslation('deviceTypes');
  const tc = useTranslation('command').t;
  const setGroup = (i: number, group: DeviceTypeMenuGroup) => onChange(menu.map((g, j) => (j === i ? group : g)));
  const setCommand = (gi: number, ci: number, command: DeviceTypeCommand) =>
    setGroup(gi, { ...menu[gi], commands: menu[gi].commands.map((c, j) => (j === ci ? command : c)) });
  const move = <T,>(list: readonly T[], from: number, to: number): T[] => {
    const copy = [...list];
    if (to < 0 || to >= copy.length) return copy;
    const [x] = copy.splice(from, 1);
    copy.splice(to, 0, x);
    return copy;
  };

  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="devtype-menu">
      {menu.map((g, gi) => (
        <Card
          // biome-ignore lint/suspicious/noArrayIndexKey: groups are positional; the name is being edited in place
          key={gi}
          size="small"
          data-testid={`devtype-group-${g.group}`}
          title={
            <Space>
              <Input
                size="small"
                value={g.group}
                maxLength={32}
                style={{ width: 140 }}
                onChange={(e) => setGroup(gi, { ...g, group: e.target.value })}
              />
              <Typography.Text type="secondary">{tc(`group.${g.group}`, { defaultValue: '' })}</Typography.Text>
            </Space>
          }
          extra={
            <Space size={2}>
              <Button size="small" icon={<ArrowUpOutlined />} onClick={() => onChange(move(menu, gi, gi - 1))} />
              <Button size="small" icon={<ArrowDownOutlined />} onClick={() => onChange(move(menu, gi, gi + 1))} />
              <Button
                size="small"
                danger
                icon={<DeleteOutlined />}
                aria-label={t('removeGroup')}
                onClick={() => onChange(menu.filter((_, j) => j !== gi))}
              />
            </Space>
          }
        >
          <Space direction="vertical" style={{ width: '100%' }}>
            {g.commands.map((c, ci) => {
              const known = menuCommandById(c.id);
              return (
                // biome-ignore lint/suspicious/noArrayIndexKey: commands are positional and may repeat an id
                <Space key={ci} wrap data-testid={`devtype-command-${c.id}`}>
                  <Input
                    size="small"
                    style={{ width: 200 }}
                    placeholder={known ? labelIn(known, i18n.language) : t('ownLabel')}
                    value={c.label?.[i18n.language === 'cn' ? 'cn' : 'en'] ?? ''}
                    onChange={(e) =>
                      setCommand(gi, ci, {
                        ...c,
                        label: { ...c.label, [i18n.language === 'cn' ? 'cn' : 'en']: e.target.value || undefined },
                      })
                    }
                  />
                  <Input
                    size="small"
                    style={{ width: 260 }}
                    value={c.template}
                    maxLength={200}
                    onChange={(e) => setCommand(gi, ci, { ...c, template: e.target.value })}
                    data-testid={`devtype-template-${c.id}`}
                  />
                  <Button
                    size="small"
                    icon={<ArrowUpOutlined />}
                    onClick={() => setGroup(gi, { ...g, commands: move(g.commands, ci, ci - 1) })}
                  />
                  <Button
                    size="small"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={t('removeCommand')}
                    data-testid={`devtype-remove-${c.id}`}
                    onClick={() => setGroup(gi, { ...g, commands: g.commands.filter((_, j) => j !== ci) })}
                  />
                </Space>
              );
            })}
            <Select
              size="small"
              showSearch
              style={{ width: 320 }}
              placeholder={t('addCommand')}
              value={null}
              data-testid={`devtype-add-command-${g.group}`}
              optionFilterProp="label"
              onChange={(id: string) => {
                const entry = menuCommandById(id);
                if (entry) setGroup(gi, { ...g, commands: [...g.commands, { id, template: entry.template }] });
              }}
              options={MENU_COMMANDS.map((c) => ({ value: c.id, label: `${labelIn(c, i18n.language)} (${c.id})` }))}
            />
          </Space>
        </Card>
      ))}
      <Button
        size="small"
        icon={<PlusOutlined />}
        onClick={() => onChange([...menu, { group: `group${menu.length + 1}`, commands: [] }])}
      >
        {t('addGroup')}
      </Button>
    </Space>
  );
}
