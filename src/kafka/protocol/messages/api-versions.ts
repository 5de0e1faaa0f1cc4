// ApiVersions (API key 18), versions 0-3; flexible from 3, but its response header is always v0 (no tagged
// fields), so that a client that sent a version the broker does not know can still read the answer: a broker
// answers an unsupported ApiVersions version with a v0 body carrying UNSUPPORTED_VERSION (35) and its own ranges
// (KIP-511), and the client retries with a version from them. v1 adds the throttle time; v3 the client's software
// name and version, and the feature tags of KIP-584.
//
// The versions that the three clients Brook is tested with send when the broker advertises the ranges of
// ADVERTISED_VERSION_RANGES (apis.ts), read from their source (kafkajs: src/protocol/requests/*/index.js;
// librdkafka: the ranges passed to rd_kafka_broker_ApiVersion_supported; @platformatic/kafka: its apis/*-vN
// modules) and confirmed by the capture tests in test/unit/kafka/*.interop.spec.ts, which decode every request
// those clients send to a loopback server; "*" marks an entry read from the source only (the tests do not make
// the client send it), "-" an API the client never sends. kafkajs uses min(its max, the broker's max) and ignores
// the broker's minimum; librdkafka and @platformatic/kafka take the highest version both sides support.
//
//   API                      kafkajs 2.2.4   @platformatic/kafka 1.35.0   librdkafka 2.0.2 (kcat 1.7.1)
//   ApiVersions              2               3                            3
//   Metadata                 6               12                           4
//   Produce                  7               9                            7
//   Fetch                    11              12 (see fetch.ts)            11
//   ListOffsets              3               7                            2
//   OffsetForLeaderEpoch     -               4 *                          -
//   FindCoordinator          2               4                            2
//   JoinGroup                5               9                            5
//   SyncGroup                3               5                            3
//   Heartbeat                3 *             4 *                          3 *
//   LeaveGroup               3               4                            1
//   OffsetCommit             5               9                            7
//   OffsetFetch              4               9                            7
//   DescribeGroups           2               5                            4 *
//   ListGroups               2               4                            4 *
//   DeleteGroups             1               2                            1 *
//   CreateTopics             3               7                            4 *
//   DeleteTopics             1               6                            1 *
//   CreatePartitions         1               3                            0 *
//   DescribeConfigs          2               4                            1 *
//   AlterConfigs             1               2                            0 *
//   IncrementalAlterConfigs  -               1                            -
//   DescribeCluster          -               1 *                          -
//   InitProducerId           1               4                            4
//   SaslHandshake            1 *             1 *                          1 *
//   SaslAuthenticate         1 *             2 *                          0 *
//   DescribeAcls             1               3                            1 *
//   CreateAcls               1               3                            1 *
//   DeleteAcls               1               3                            1 *
//
// What the handlers must know besides the versions: librdkafka 2.0 compresses with gzip, snappy and lz4 only when
// Produce is advertised from v0 (hence ADVERTISED_VERSION_RANGES); it refuses a Fetch answer whose records are
// null; @platformatic/kafka names Fetch v12 topics by their ids (fetch.ts); OffsetCommit v9 and OffsetFetch v9
// are what @platformatic/kafka sends for classic groups too; kafkajs sends JoinGroup v5 with an empty member id
// and takes one given at once (the capture tests do) or with MEMBER_ID_REQUIRED (its v4-v5 parsers); after SaslHandshake v0 (no client here sends it)
// the SASL tokens come as bare frames.
import { array, bool, defineApi, int16, int32, int64, string } from '../schema.js';

export const apiVersions = defineApi({
  name: 'ApiVersions',
  apiKey: 18,
  versions: '0-3',
  flexible: '3+',
  responseHeaderAlwaysV0: true,
  request: [
    string('clientSoftwareName', '3+', { ignorable: true }),
    string('clientSoftwareVersion', '3+', { ignorable: true }),
  ],
  response: [
    int16('errorCode', '0+'),
    array('apiKeys', '0+', [int16('apiKey', '0+'), int16('minVersion', '0+'), int16('maxVersion', '0+')]),
    int32('throttleTimeMs', '1+', { ignorable: true }),
    array('supportedFeatures', '3+', [string('name', '3+'), int16('minVersion', '3+'), int16('maxVersion', '3+')], {
      tag: 0,
      ignorable: true,
    }),
    int64('finalizedFeaturesEpoch', '3+', { tag: 1, default: -1, ignorable: true }),
    array(
      'finalizedFeatures',
      '3+',
      [string('name', '3+'), int16('maxVersionLevel', '3+'), int16('minVersionLevel', '3+')],
      { tag: 2, ignorable: true },
    ),
    bool('zkMigrationReady', '3+', { tag: 3, default: false, ignorable: true }),
  ],
});
