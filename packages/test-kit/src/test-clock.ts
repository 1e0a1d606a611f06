/** A clock tests move forward by hand; `now` is what a service takes as its clock. */
export class TestClock {
  private current = Date.now();
  readonly now = (): Date => new Date(this.current);
  advance(ms: number): void {
    this.current += ms;
  }
}
