// The per-function alarms live in a nested stack (alarms.yaml, the FunctionAlarms application of
// template.yaml) so that they do not count against the parent stack's 500 resources. The two
// generated parts cannot drift: every function of template.yaml has exactly one alarm there, on its
// own name, and there is no alarm (nor parameter) for a function that no longer exists.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ALARMS_FILE, ALARMS_PATH, ALARMS_STACK } from '../../infra/deploy/alarms.ts';
import { listFunctions, loadTemplate, parseTemplate, type Template } from '../../infra/local/template.ts';

const parent = loadTemplate();
const nested = parseTemplate(readFileSync(ALARMS_PATH, 'utf8'));

/** What is wrong between template.yaml's functions and the alarms stack: empty when they agree. */
function drift(parentTemplate: Template, alarms: Template): string[] {
  const problems: string[] = [];
  const functions = listFunctions(parentTemplate).map((f) => f.id);
  const app = parentTemplate.Resources[ALARMS_STACK];
  if (app?.Type !== 'AWS::Serverless::Application') return [`no ${ALARMS_STACK} application`];
  if (app.Properties?.Location !== ALARMS_FILE) problems.push(`${ALARMS_STACK} is not ${ALARMS_FILE}`);
  const passed: Record<string, unknown> = app.Properties?.Parameters ?? {};
  const declared = alarms.Parameters ?? {};
  const alarmResources = Object.entries(alarms.Resources).filter(
    ([, r]) => r.Type === 'AWS::CloudWatch::Alarm',
  );
  if (alarmResources.length !== Object.keys(alarms.Resources).length)
    problems.push(`${ALARMS_FILE} holds something other than alarms`);
  // Which function each alarm watches: the parameter in its dimensions, and what the parent passes.
  const watched = new Map<string, string>();
  for (const [alarmId, alarm] of alarmResources) {
    const refs = new Set(
      (alarm.Properties?.Metrics ?? []).flatMap(
        (m: any) => m.MetricStat?.Metric.Dimensions?.map((d: any) => d.Value?.Ref) ?? [],
      ),
    );
    const [parameter, ...others] = [...refs] as string[];
    const fn = (passed[parameter] as { Ref?: string } | undefined)?.Ref;
    if (others.length || !fn) {
      problems.push(`${alarmId} watches no function the parent passes (${[...refs].join(', ')})`);
      continue;
    }
    if (!functions.includes(fn)) problems.push(`${alarmId} watches ${fn}, which is not a function`);
    if (watched.has(fn)) problems.push(`${fn} has two alarms`);
    watched.set(fn, alarmId);
    if (JSON.stringify(alarm.Properties?.AlarmActions) !== '[{"Ref":"AlarmTopicArn"}]')
      problems.push(`${alarmId} does not notify AlarmTopicArn`);
  }
  for (const fn of functions) if (!watched.has(fn)) problems.push(`${fn} has no alarm`);
  const passedNames = Object.keys(passed).sort();
  if (JSON.stringify(passedNames) !== JSON.stringify(Object.keys(declared).sort()))
    problems.push(`${ALARMS_STACK} passes ${passedNames.length} parameters, ${ALARMS_FILE} declares others`);
  if (JSON.stringify(passed.AlarmTopicArn) !== '{"Ref":"AlarmTopicArn"}')
    problems.push('AlarmTopicArn is not passed on');
  return problems;
}

describe(`per-function alarms (${ALARMS_FILE})`, () => {
  it('every function of template.yaml has exactly one alarm in the nested stack, and nothing else is there', () => {
    expect(drift(parent, nested)).toEqual([]);
    expect(Object.keys(nested.Resources)).toHaveLength(listFunctions(parent).length);
  });

  it('the check is not vacuous: a function without an alarm, and an alarm without a function, are found', () => {
    const added = structuredClone(parent);
    added.Resources.NotesNewFunction = structuredClone(parent.Resources.NotesGetMeFunction);
    expect(drift(added, nested)).toEqual(['NotesNewFunction has no alarm']);

    const removed = structuredClone(parent);
    delete removed.Resources.NotesGetMeFunction;
    expect(drift(removed, nested)).toEqual([
      'NotesGetMeAlarm watches NotesGetMeFunction, which is not a function',
    ]);

    const unpassed = structuredClone(parent);
    delete unpassed.Resources[ALARMS_STACK].Properties!.Parameters.NotesGetMeFunctionName;
    expect(drift(unpassed, nested)).toEqual([
      'NotesGetMeAlarm watches no function the parent passes (NotesGetMeFunctionName)',
      'NotesGetMeFunction has no alarm',
      `${ALARMS_STACK} passes ${listFunctions(parent).length} parameters, ${ALARMS_FILE} declares others`,
    ]);
  });

  it('the parent keeps no per-function alarm', () => {
    // The parent keeps one 5XX alarm per API, the dead-letter queues' alarms and the Bank's
    // code-sends alarm (a stack-wide metric, TriApi/Bank); no alarm on a function's own metrics
    // (those are in the nested stack).
    const parentAlarms = Object.values(parent.Resources).filter((r) => r.Type === 'AWS::CloudWatch::Alarm');
    expect(parentAlarms.length).toBeGreaterThan(0);
    expect(JSON.stringify(parentAlarms)).not.toContain('AWS/Lambda');
    expect(parentAlarms.map((a) => a.Properties?.MetricName).sort()).toEqual(
      parentAlarms
        .map((a) => a.Properties?.MetricName)
        .sort()
        .filter((m) => ['5XXError', 'ApproximateNumberOfMessagesVisible', 'CodeSendsRefused'].includes(m)),
    );
  });

  it(`${ALARMS_FILE} says it is generated; CloudFormation's 200 parameters leave room`, () => {
    expect(readFileSync(ALARMS_PATH, 'utf8')).toMatch(/^# Generated by `npm run deploy:sync`/);
    expect(Object.keys(nested.Parameters ?? {}).length).toBeLessThanOrEqual(200);
  });
});
