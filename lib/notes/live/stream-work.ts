// The stream function's work for one batch of the table's stream (docs/live.md, "The stream"): one
// task per note (flush its live text, recheck its connections, drop a purged document, in that
// order) or per user (recheck), at most STREAM_CONCURRENCY at once. A task that fails fails only
// itself: the batch answers with the earliest record whose task failed (a partial batch response,
// ReportBatchItemFailures), so Lambda retries from there a bounded number of times and then sends
// it to the dead-letter queue, while every other note's work is already done.
import pMap from 'p-map';

/** Notes (or users) worked on at once by one invocation. */
export const STREAM_CONCURRENCY = 16;

export interface StreamTask {
  /** The lowest stream sequence number among the records this task stands for. */
  seq: string;
  /** What the task is about (for the log): `note <shortId>` or `user <userId>`. */
  what: string;
  run(): Promise<void>;
}

export interface BatchItemFailure {
  itemIdentifier: string;
}

const lower = (a: string, b: string) => (BigInt(a) <= BigInt(b) ? a : b);

export async function runStreamTasks(
  tasks: StreamTask[],
  opts: { concurrency?: number; failed?: (task: StreamTask, err: unknown) => void } = {},
): Promise<BatchItemFailure[]> {
  let earliest: string | undefined;
  await pMap(
    tasks,
    async (task) => {
      try {
        await task.run();
      } catch (err) {
        opts.failed?.(task, err);
        earliest = earliest === undefined ? task.seq : lower(earliest, task.seq);
      }
    },
    { concurrency: opts.concurrency ?? STREAM_CONCURRENCY },
  );
  return earliest === undefined ? [] : [{ itemIdentifier: earliest }];
}
