// The live tail: the topic's records as they are appended, over SSE read with fetch (so the user's credentials
// go with it). Records arriving between two frames are drawn together; the newest LIVE_TAIL_RECORDS_MAX are kept
// and only the visible rows are in the DOM (a virtualised list), so thousands of records a second stay smooth.
import { Badge, Box, Button, Code, Group, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState } from 'react';
import { streamRecords } from '../../api/record-stream';
import { ErrorAlert } from '../../components/error-alert';
import { BoundedBuffer } from '../../lib/bounded-buffer';
import { DECODE_FORMATS, renderBytes, type ConsoleRecord, type DecodeFormat } from '../../lib/records';

export const LIVE_TAIL_RECORDS_MAX = 10_000;
const ROW_HEIGHT_PX = 28;

export function LiveTail({ clusterId, topic }: { clusterId: string; topic: string }) {
  const [running, setRunning] = useState(false);
  const [from, setFrom] = useState<'latest' | 'earliest'>('latest');
  const [format, setFormat] = useState<DecodeFormat>('binary');
  const [records, setRecords] = useState<readonly ConsoleRecord[]>([]);
  const [error, setError] = useState<unknown>(null);
  const buffer = useRef(new BoundedBuffer<ConsoleRecord>(LIVE_TAIL_RECORDS_MAX));
  const pending = useRef<ConsoleRecord[]>([]);
  const frame = useRef<number | null>(null);
  const scroller = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!running) return;
    const abort = new AbortController();
    setError(null);
    streamRecords({
      clusterId,
      topic,
      from,
      format,
      signal: abort.signal,
      onRecords(batch) {
        pending.current.push(...batch);
        if (frame.current !== null) return;
        frame.current = requestAnimationFrame(() => {
          frame.current = null;
          const next = buffer.current.push(pending.current);
          pending.current = [];
          setRecords(next);
        });
      },
    })
      .then(() => setRunning(false))
      .catch((failure: unknown) => {
        if (abort.signal.aborted) return;
        setError(failure);
        setRunning(false);
      });
    return () => {
      abort.abort();
      if (frame.current !== null) cancelAnimationFrame(frame.current);
      frame.current = null;
    };
  }, [running, clusterId, topic, from, format]);

  const rows = useVirtualizer({
    count: records.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT_PX,
    overscan: 10,
  });
  useEffect(() => {
    if (running && records.length > 0) rows.scrollToIndex(records.length - 1, { align: 'end' });
  }, [records.length, running, rows]);

  return (
    <Stack>
      <Group>
        <SegmentedControl
          aria-label="Start the tail at"
          value={from}
          onChange={(value) => setFrom(value as 'latest' | 'earliest')}
          disabled={running}
          data={[
            { value: 'latest', label: 'New records' },
            { value: 'earliest', label: 'From the beginning' },
          ]}
        />
        <Select
          aria-label="Decode values as"
          data={DECODE_FORMATS}
          value={format}
          onChange={(value) => setFormat((value ?? 'binary') as DecodeFormat)}
          disabled={running}
          allowDeselect={false}
          w={150}
        />
        <Button onClick={() => setRunning(!running)} color={running ? 'red' : undefined}>
          {running ? 'Stop' : 'Start'}
        </Button>
        <Button variant="default" onClick={() => setRecords(buffer.current.clear())} disabled={records.length === 0}>
          Clear
        </Button>
        {running && <Badge color="teal">live</Badge>}
        <Text size="sm" data-testid="tail-count">
          {records.length} records shown
          {buffer.current.dropped > 0 &&
            `, ${buffer.current.dropped} older ones dropped (keeps ${LIVE_TAIL_RECORDS_MAX})`}
        </Text>
      </Group>
      {error !== null && <ErrorAlert error={error} />}
      <Box
        ref={scroller}
        h={420}
        style={{ overflow: 'auto', border: '1px solid var(--mantine-color-default-border)', borderRadius: 4 }}
        data-testid="tail"
        role="log"
        aria-label="Live records"
        tabIndex={0}
      >
        <div style={{ height: rows.getTotalSize(), position: 'relative' }}>
          {rows.getVirtualItems().map((item) => {
            const record = records[item.index];
            return (
              <div
                key={item.key}
                data-testid="tail-record"
                style={{
                  position: 'absolute',
                  top: 0,
                  left: 0,
                  right: 0,
                  height: item.size,
                  transform: `translateY(${item.start}px)`,
                }}
              >
                <Text size="xs" ff="monospace" px="xs" truncate="end" lh={`${ROW_HEIGHT_PX}px`}>
                  <Code>
                    {record.partition}:{record.offset}
                  </Code>{' '}
                  {renderBytes(record.key, 'text')} → {record.valueError ?? renderBytes(record.value, 'text')}
                </Text>
              </div>
            );
          })}
        </div>
      </Box>
    </Stack>
  );
}
