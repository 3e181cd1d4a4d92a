import { describe, expect, it } from 'vitest';
import { createSseParser, type SseMessage } from '../../../src-renderer/api/sse-parser';

describe('the event stream parser', () => {
  it('reads events split anywhere across chunks, and skips comments', () => {
    const stream = ': connected\n\nevent: exchange\ndata: {"id":1}\n\n: keep-alive\n\nevent: status\ndata: {"a":\ndata: 2}\n\n';
    for (const size of [1, 2, 7, stream.length]) {
      const got: SseMessage[] = [];
      const feed = createSseParser((m) => got.push(m));
      for (let i = 0; i < stream.length; i += size) feed(stream.slice(i, i + size));
      expect(got, `chunks of ${size}`).toEqual([
        { event: 'exchange', data: '{"id":1}' },
        { event: 'status', data: '{"a":\n2}' },
      ]);
    }
  });
});
