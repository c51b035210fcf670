// Every function's log group lives in a nested stack (logs.yaml, the FunctionLogs application of
// template.yaml) so that none counts against the parent stack's 500 resources. The two generated
// parts cannot drift: every function of template.yaml logs to its own group of logs.yaml, named
// through the nested stack's outputs, kept LogRetentionDays, and no group or output is left for a
// function that no longer exists. The groups' names never collide with the parent's former ones
// (an update creates the nested groups before it deletes those: docs/deploy.md).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  baseName,
  LOGS_FILE,
  LOGS_PATH,
  LOGS_STACK,
  logGroupName,
  PARENT_STACK_NAME,
} from '../../infra/deploy/logs.ts';
import { listFunctions, loadTemplate, parseTemplate, type Template } from '../../infra/local/template.ts';

const parent = loadTemplate();
const text = readFileSync(LOGS_PATH, 'utf8');
const nested = parseTemplate(text);

/** The output of FunctionLogs a LoggingConfig.LogGroup names (`!GetAtt FunctionLogs.Outputs.X`). */
function outputNamed(logGroup: unknown): string | undefined {
  const getAtt = (logGroup as { 'Fn::GetAtt'?: string[] } | undefined)?.['Fn::GetAtt'];
  if (getAtt?.length !== 3 || getAtt[0] !== LOGS_STACK || getAtt[1] !== 'Outputs') return undefined;
  return getAtt[2];
}

/** What is wrong between template.yaml's functions and the log groups stack: empty when they agree. */
function drift(parentTemplate: Template, logs: Template): string[] {
  const problems: string[] = [];
  const app = parentTemplate.Resources[LOGS_STACK];
  if (app?.Type !== 'AWS::Serverless::Application') return [`no ${LOGS_STACK} application`];
  if (app.Properties?.Location !== LOGS_FILE) problems.push(`${LOGS_STACK} is not ${LOGS_FILE}`);
  const passed = app.Properties?.Parameters ?? {};
  if (
    JSON.stringify(passed) !==
    JSON.stringify({
      ParentStackName: { Ref: 'AWS::StackName' },
      LogRetentionDays: { Ref: 'LogRetentionDays' },
    })
  )
    problems.push(`${LOGS_STACK} does not pass the stack's name and LogRetentionDays`);
  if (
    JSON.stringify(Object.keys(logs.Parameters ?? {}).sort()) !== JSON.stringify(Object.keys(passed).sort())
  )
    problems.push(`${LOGS_FILE} declares other parameters than ${LOGS_STACK} passes`);
  const groups = Object.entries(logs.Resources);
  if (groups.some(([, r]) => r.Type !== 'AWS::Logs::LogGroup'))
    problems.push(`${LOGS_FILE} holds something other than log groups`);
  const outputs = (logs.Outputs ?? {}) as Record<string, { Value?: { Ref?: string } }>;
  const used = new Map<string, string>();
  for (const fn of listFunctions(parentTemplate)) {
    const output = outputNamed(fn.properties.LoggingConfig?.LogGroup);
    const groupId = output && outputs[output]?.Value?.Ref;
    const group = groupId ? logs.Resources[groupId] : undefined;
    if (!group) {
      problems.push(`${fn.id} logs to no group of ${LOGS_FILE}`);
      continue;
    }
    if (used.has(groupId!)) problems.push(`${fn.id} logs to ${used.get(groupId!)}'s group`);
    used.set(groupId!, fn.id);
    if (
      JSON.stringify(group.Properties?.LogGroupName) !==
      JSON.stringify({ 'Fn::Sub': logGroupName(PARENT_STACK_NAME, fn.id) })
    )
      problems.push(`${groupId} is not named for ${fn.id}`);
    if (JSON.stringify(group.Properties?.RetentionInDays) !== '{"Ref":"LogRetentionDays"}')
      problems.push(`${groupId} is not kept LogRetentionDays`);
  }
  for (const [id] of groups) if (!used.has(id)) problems.push(`${id} is no function's log group`);
  const usedOutputs = new Set(
    listFunctions(parentTemplate).map((fn) => outputNamed(fn.properties.LoggingConfig?.LogGroup)),
  );
  for (const output of Object.keys(outputs))
    if (!usedOutputs.has(output)) problems.push(`output ${output} is unused`);
  return problems;
}

describe(`per-function log groups (${LOGS_FILE})`, () => {
  it('every function of template.yaml logs to its own group of the nested stack, and nothing else is there', () => {
    expect(drift(parent, nested)).toEqual([]);
    expect(Object.keys(nested.Resources)).toHaveLength(listFunctions(parent).length);
    // The parent keeps no function's log group (its own are the APIs' access logs).
    const parentGroups = Object.values(parent.Resources).filter((r) => r.Type === 'AWS::Logs::LogGroup');
    expect(JSON.stringify(parentGroups)).not.toContain('/aws/lambda/');
  });

  it('the check is not vacuous: a function without a group, and a group without a function, are found', () => {
    const added = structuredClone(parent);
    added.Resources.NotesNewFunction = structuredClone(parent.Resources.NotesGetMeFunction);
    expect(drift(added, nested)).toEqual([
      "NotesNewFunction logs to NotesGetMeFunction's group",
      'NotesGetMeLogs is not named for NotesNewFunction',
    ]);

    const removed = structuredClone(parent);
    delete removed.Resources.NotesGetMeFunction;
    expect(drift(removed, nested)).toEqual([
      "NotesGetMeLogs is no function's log group",
      'output NotesGetMeLogGroup is unused',
    ]);

    const byRef = structuredClone(parent);
    byRef.Resources.NotesGetMeFunction.Properties!.LoggingConfig.LogGroup = { Ref: 'NotesGetMeLogs' };
    expect(drift(byRef, nested)).toEqual([
      `NotesGetMeFunction logs to no group of ${LOGS_FILE}`,
      "NotesGetMeLogs is no function's log group",
      'output NotesGetMeLogGroup is unused',
    ]);

    const retention = structuredClone(parent);
    delete retention.Resources[LOGS_STACK].Properties!.Parameters.LogRetentionDays;
    expect(drift(retention, nested)).toEqual([
      `${LOGS_STACK} does not pass the stack's name and LogRetentionDays`,
      `${LOGS_FILE} declares other parameters than ${LOGS_STACK} passes`,
    ]);
  });

  it("the groups' names are unique, valid for the longest stack name, and none is a former name (an update creates them before it deletes those)", () => {
    const stack = `t${'x'.repeat(127)}`; // CloudFormation stack names: up to 128 characters
    const names = listFunctions(parent).map((fn) => logGroupName(stack, fn.id));
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) {
      expect(name.length, name).toBeLessThanOrEqual(512);
      expect(name, name).toMatch(/^[\w./#-]+$/);
    }
    const former = listFunctions(parent).map((fn) => `/aws/lambda/${stack}/${baseName(fn.id)}`);
    expect(names.filter((n) => former.includes(n))).toEqual([]);
    // Nor Lambda's default group of any function (`/aws/lambda/<function name>`, names of 64 at most).
    expect(names.every((n) => n.split('/').length === 6)).toBe(true);
  });

  it(`${LOGS_FILE} says it is generated, takes the parent's retention values, and stays within CloudFormation's limits`, () => {
    expect(text).toMatch(/^# Generated by `npm run deploy:sync`/);
    expect(nested.Parameters?.LogRetentionDays).toMatchObject({
      AllowedValues: (parent.Parameters!.LogRetentionDays as { Type: string; AllowedValues: number[] })
        .AllowedValues,
    });
    expect(Object.keys(nested.Outputs ?? {}).length).toBeLessThanOrEqual(200);
    expect(Object.keys(nested.Parameters ?? {}).length).toBeLessThanOrEqual(200);
    expect(Object.keys(nested.Resources).length).toBeLessThanOrEqual(500);
    expect(Buffer.byteLength(text)).toBeLessThan(1024 * 1024);
  });
});
