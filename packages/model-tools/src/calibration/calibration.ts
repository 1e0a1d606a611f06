/**
 * The activation ranges a calibration run collects (the maintainer tools calibrate-*-cli.ts): [min, max] of every
 * named tensor over all inputs, starting from [0, 0].
 */
export class ActivationRanges {
  private readonly ranges = new Map<string, [number, number]>();

  constructor(names: readonly string[]) {
    for (const name of names) this.ranges.set(name, [0, 0]);
  }

  widen(name: string, values: Float32Array): void {
    const range = this.ranges.get(name)!;
    for (const value of values) {
      if (value < range[0]) range[0] = value;
      if (value > range[1]) range[1] = value;
    }
  }

  /** One `'name': [min, max],` line per tensor, rounded outward to 1/16: short, and stable against last-bit sums. */
  tableLines(): string[] {
    return [...this.ranges].map(
      ([name, [min, max]]) => `  '${name}': [${Math.floor(min * 16) / 16}, ${Math.ceil(max * 16) / 16}],`,
    );
  }
}
