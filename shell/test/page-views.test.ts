import { createPageViewTracker } from '../src/page-views';

describe('page-view tracker', () => {
  it('reports each new address once, however many routing events single-spa fires for it', () => {
    let href = 'https://productgen.test/';
    const track = jest.fn();
    const onRoutingEvent = createPageViewTracker(track, () => href);

    onRoutingEvent();
    onRoutingEvent();
    expect(track).toHaveBeenCalledTimes(1);

    href = 'https://productgen.test/pricing';
    onRoutingEvent();
    href = 'https://productgen.test/productgen#batch';
    onRoutingEvent();
    onRoutingEvent();
    expect(track).toHaveBeenCalledTimes(3);

    href = 'https://productgen.test/';
    onRoutingEvent();
    expect(track).toHaveBeenCalledTimes(4);
  });
});
