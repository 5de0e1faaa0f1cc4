// The Kafka listener of a real broker (DESIGN.md §3b), spoken to byte by byte: ApiVersions advertises the
// handler table, an ApiVersions version the broker cannot decode gets the v0-shaped UNSUPPORTED_VERSION answer
// and the connection stays open, answers come back in request order, and what the broker cannot serve closes
// the connection without harming the broker.
import { afterEach, describe, expect, it } from 'vitest';
import { ADVERTISED_VERSIONS } from '../../src/kafka/handler-table.js';
import { decodeResponse, encodeRequest } from '../../src/kafka/protocol/codec.js';
import { brokerForSuite } from './support/broker-process.js';
import { KafkaWire } from './support/kafka-wire.js';

/** The client software fields of ApiVersions v3 (ignored by the versions before). */
const V3_BODY = { clientSoftwareName: 'e2e', clientSoftwareVersion: '1' };

describe('the Kafka listener', () => {
  const suite = brokerForSuite();
  const wires: KafkaWire[] = [];
  const open = async () => {
    const wire = await KafkaWire.open(suite.broker.kafkaPort);
    wires.push(wire);
    return wire;
  };
  afterEach(() => {
    for (const wire of wires.splice(0)) wire.close();
  });

  it('answers ApiVersions v0 to v3 with the handler table, answer header v0 even for the flexible v3', async () => {
    const wire = await open();
    const expected = ADVERTISED_VERSIONS.map(({ apiKey, minVersion, maxVersion }) => ({
      apiKey,
      minVersion,
      maxVersion,
    }));
    for (const version of [0, 1, 2, 3]) {
      const body = await wire.call('ApiVersions', version, V3_BODY);
      expect(body.errorCode).toBe(0);
      expect(body.apiKeys).toEqual(expected);
    }
  });

  it('answers an ApiVersions version it does not know with v0 UNSUPPORTED_VERSION and its ranges, and stays open', async () => {
    const wire = await open();
    const frame = Buffer.concat(encodeRequest('ApiVersions', 3, 77, 'future', V3_BODY));
    frame.writeInt16BE(9, 6); // ApiVersions v9, which no broker knows yet
    wire.writeRaw(frame);
    const answer = await wire.nextFrame();
    const decoded = decodeResponse('ApiVersions', 0, answer!);
    expect(decoded.ok && decoded.value.correlationId).toBe(77);
    expect(decoded.ok && decoded.value.body.errorCode).toBe(35);
    expect(decoded.ok && decoded.value.body.apiKeys.find((key) => key.apiKey === 18)).toEqual({
      apiKey: 18,
      minVersion: 0,
      maxVersion: 3,
    });
    const again = await wire.call('ApiVersions', 3, V3_BODY);
    expect(again.errorCode).toBe(0);
  });

  it('answers pipelined requests in the order they were sent', async () => {
    const wire = await open();
    const sent = [0, 1, 2, 3, 2, 1, 0, 3].map((version) => ({
      version,
      correlationId: wire.send('ApiVersions', version, V3_BODY),
    }));
    for (const { version, correlationId } of sent) {
      expect((await wire.answer('ApiVersions', version)).correlationId).toBe(correlationId);
    }
  });

  it('closes a connection that sends an unknown API key or garbage, and goes on serving others', async () => {
    const unknown = await open();
    const frame = Buffer.concat(encodeRequest('ApiVersions', 2, 5, 'x', V3_BODY));
    frame.writeInt16BE(999, 4);
    unknown.writeRaw(frame);
    expect(await unknown.closedByBroker()).toBe(true);
    const garbage = await open();
    garbage.writeRaw(Buffer.from([0, 0, 0, 5, 1, 2, 3, 4, 5]));
    expect(await garbage.closedByBroker()).toBe(true);
    const healthy = await open();
    expect((await healthy.call('ApiVersions', 2, V3_BODY)).errorCode).toBe(0);
  });
});
