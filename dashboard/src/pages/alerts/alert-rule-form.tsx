import { useState } from 'preact/hooks';
import { execute } from '../../api/graphql-client';
import { useKeywordChoices } from '../../api/keyword-choices';
import { useAction } from '../../api/use-query';
import type { AlertsPageQuery } from '../../graphql/graphql';
import { CheckboxGroup, SelectField, TextField } from '../../ui/fields';
import { utcScheduleHere } from '../../ui/format';
import { ErrorNotice, Notice } from '../../ui/notice';
import { CreateAlertRuleDocument } from './alert-operations';
import { ActionForm } from '../../ui/action-form';

/** The instant rules' preset events (spec 6.2): each brings its filter. */
export const instantEvents = [
  ['mention.matched', 'Every relevant mention'],
  ['mention.high_relevance', 'Relevance 80 or more'],
  ['mention.negative', 'Negative'],
  ['mention.positive', 'Positive'],
  ['mention.buy_intent', 'Buying intent'],
  ['mention.question', 'Questions'],
  ['mention.complaint', 'Complaints'],
  ['mention.comparison', 'Comparisons'],
] as const;
const weekdays = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
type Mode = 'instant' | 'daily' | 'weekly';

export function AlertRuleForm({ data, onCreated }: { data: AlertsPageQuery; onCreated(): void }) {
  const { keywords, error: keywordsError } = useKeywordChoices();
  const [name, setName] = useState('');
  const [mode, setMode] = useState<Mode>('instant');
  const [event, setEvent] = useState<(typeof instantEvents)[number][0]>('mention.matched');
  const [hour, setHour] = useState('9');
  const [weekday, setWeekday] = useState<string>('monday');
  const [channelIds, setChannelIds] = useState<string[]>([]);
  const [keywordIds, setKeywordIds] = useState<string[]>([]);
  const [minRelevance, setMinRelevance] = useState('');
  const create = useAction(async () => {
    await execute(CreateAlertRuleDocument, {
      input: {
        name,
        mode,
        ...(mode === 'instant' ? { event } : { schedule: { hour: Number(hour), ...(mode === 'weekly' ? { weekday } : {}) } }),
        channelIds,
        filter: { ...(keywordIds.length ? { keywordIds } : {}), ...(minRelevance ? { minRelevance: Number(minRelevance) } : {}) },
      },
    });
    // The next rule starts from the defaults: channels and keywords left ticked went unnoticed into it.
    setName('');
    setMode('instant');
    setEvent('mention.matched');
    setHour('9');
    setWeekday('monday');
    setChannelIds([]);
    setKeywordIds([]);
    setMinRelevance('');
    onCreated();
    return name;
  });
  const here = /^\d+$/.test(hour) && Number(hour) <= 23 ? utcScheduleHere(Number(hour), mode === 'weekly' ? weekday : null) : undefined;
  return (
    <ActionForm onSubmit={() => void create.run()}>
      <div class="grid-2">
        <TextField label="Rule name" required value={name} onInput={setName} />
        <SelectField
          label="When"
          value={mode}
          options={[['instant', 'Instantly'], ['daily', 'Daily digest'], ['weekly', 'Weekly digest']] as [Mode, string][]}
          onChange={setMode}
        />
        {mode === 'instant' ? (
          <SelectField label="Which mentions" value={event} options={instantEvents} onChange={setEvent} />
        ) : (
          <TextField
            label="Hour (UTC)"
            type="number"
            min={0}
            max={23}
            required
            value={hour}
            onInput={setHour}
            hint={here && `${hour}:00 UTC is ${here} here`}
          />
        )}
        {mode === 'weekly' && <SelectField label="Weekday" value={weekday} options={weekdays.map((day) => [day, day] as [string, string])} onChange={setWeekday} />}
        <TextField label="Minimum relevance" type="number" min={0} max={100} value={minRelevance} onInput={setMinRelevance} hint="Blank: the preset's, or none" />
      </div>
      {data.channels.length === 0 ? (
        <p class="hint">A rule sends to channels: create one above first.</p>
      ) : (
        <CheckboxGroup legend="Send to" options={data.channels.map((channel) => [channel.id, `${channel.label} (${channel.kind})`] as [string, string])} value={channelIds} onChange={setChannelIds} />
      )}
      {keywords && keywords.length > 0 && (
        <CheckboxGroup legend="Only these keywords (none: all)" options={keywords.map((keyword) => [keyword.id, keyword.term] as [string, string])} value={keywordIds} onChange={setKeywordIds} />
      )}
      <ErrorNotice error={keywordsError ?? create.error} />
      {create.outcome && <Notice tone="success">Rule “{create.outcome}” created.</Notice>}
      <button type="submit" disabled={create.busy}>
        {create.busy ? 'Creating…' : 'Create rule'}
      </button>
    </ActionForm>
  );
}
