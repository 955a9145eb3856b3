// The reading of an oil / electricity cut or restore reply (spec §4, domain oilControlOutcome, given by the
// server in the caller's language) beside the raw reply: on the command screen, its records and batch results.
import { Space, Tag, Typography } from 'antd';

export interface OilOutcomeView {
  outcome: 'success' | 'timeout' | 'failure';
  messages: string[];
}

const COLOR = { success: 'success', timeout: 'warning', failure: 'error' } as const;

export function OilOutcome({ oil }: { oil: OilOutcomeView | null | undefined }) {
  if (!oil) return null;
  return (
    <Space size={4} wrap data-testid="oil-outcome">
      {oil.messages.map((m) => (
        <Tag key={m} color={COLOR[oil.outcome]}>
          {m}
        </Tag>
      ))}
    </Space>
  );
}

/** A reply cell: the oil reading when there is one, then the reply text. */
export function ReplyCell({ reply, oil }: { reply: string | null; oil?: OilOutcomeView | null }) {
  return (
    <Space direction="vertical" size={0}>
      <OilOutcome oil={oil} />
      <Typography.Text>{reply ?? '-'}</Typography.Text>
    </Space>
  );
}
