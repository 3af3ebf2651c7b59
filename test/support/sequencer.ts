/**
 * The order vitest starts the test files in (vitest.config.ts): the `slow` project's files first, then `infra`'s,
 * then the many short `fast` ones, which fill the two workers while the last long file ends. Within a project,
 * vitest's own order: the files that failed last time, then the longest by the last run's times (by size on a fresh
 * clone, which has no times yet).
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const FIRST_TO_LAST = ['slow', 'infra', 'fast'];
const rank = (spec: TestSpecification) => {
  const at = FIRST_TO_LAST.indexOf(spec.project.name);
  return at === -1 ? FIRST_TO_LAST.length : at;
};

export class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // Array sort is stable: vitest's order stays within each project.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
