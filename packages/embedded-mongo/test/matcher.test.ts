import { ObjectId } from 'bson';
import { Query } from 'mingo';
import { compileFilter } from '../src/query/matcher';
import type { Doc } from '../src/values';

/** The fast path for simple filters must agree with mingo (MongoDB semantics) on every document. */
describe('compileFilter', () => {
  const id = new ObjectId();
  const docs: Doc[] = [
    { _id: id, balance: 5, name: 'ann', at: new Date(1000) },
    { _id: new ObjectId(), balance: 0, name: 'bob' },
    { _id: 'text-id', balance: '7', name: null },
    { _id: 3, balance: [1, 10], name: ['ann', 'cy'] },
    { _id: 4, balance: { nested: 1 } },
    { _id: 5 },
  ];
  const filters: Doc[] = [
    {},
    { _id: id },
    { _id: new ObjectId(id.toHexString()), balance: { $gte: 1 } },
    { balance: { $gte: 1 } },
    { balance: { $gt: 0, $lt: 6 } },
    { balance: { $lte: 0 } },
    { balance: { $ne: 5 } },
    { balance: 10 },
    { name: 'ann' },
    { name: { $ne: 'ann' } },
    { name: { $gt: 'b' } },
    { at: { $gte: new Date(500) } },
    { _id: 3, name: 'cy' },
    { balance: { $eq: '7' } },
  ];

  it.each(filters.map((filter) => [JSON.stringify(filter), filter]))('matches like mingo for %s', (_label, filter) => {
    const expected = docs.filter((doc) => new Query(filter as Doc, {}).test(doc)).map((doc) => doc._id);
    const matcher = compileFilter(filter as Doc);
    expect(docs.filter(matcher).map((doc) => doc._id)).toEqual(expected);
  });
});
