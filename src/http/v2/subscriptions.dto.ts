// Body of REST Proxy v2's POST /consumers/{g}/instances/{i}/subscription (ConsumerSubscriptionRecord): topics, or a
// topic_pattern, never both (409, 40901, as Confluent answers). A body that is not an object is 400 (40002); a
// missing or bad list of topics, or a pattern that is not a string, 422 (42206; the service checks
// the pattern itself). No body is an empty one.
import { ValidateIf } from '../../common/class-validator.js';
import {
  SUBSCRIPTION_TOPICS_MAX,
  type SubscriptionBody,
} from '../../application/consumer-instances/instance-requests.js';
import { BodyRules, isNonEmptyString, IsText } from '../validation/body-rules.js';
import {
  INVALID_PAYLOAD,
  INVALID_REQUEST,
  RejectsWith,
  SUBSCRIPTION_CONFLICT,
} from '../validation/rest-validation.pipe.js';

const NEEDS_TOPICS = 'The subscription needs topics (a non-empty array of topic names) or topic_pattern.';

@RejectsWith(INVALID_PAYLOAD, { shape: INVALID_REQUEST, nil: 'empty' })
@BodyRules(
  {
    name: 'topicsOrPattern',
    check: (body) => body.topics === undefined || body.topic_pattern === undefined,
    message: 'Subscription to topics, partitions and pattern are mutually exclusive.',
    options: { context: SUBSCRIPTION_CONFLICT },
  },
  {
    name: 'topicsGiven',
    check: (body) =>
      body.topic_pattern !== undefined ||
      (Array.isArray(body.topics) && body.topics.length > 0 && body.topics.every(isNonEmptyString)),
    message: NEEDS_TOPICS,
  },
  {
    name: 'topicsCount',
    check: (body) => !Array.isArray(body.topics) || body.topics.length <= SUBSCRIPTION_TOPICS_MAX,
    message: `A subscription names at most ${SUBSCRIPTION_TOPICS_MAX} topics.`,
  },
)
export class SubscriptionDto implements SubscriptionBody {
  /** Checked by the body rules, with topic_pattern. */
  topics?: string[] | null;

  @ValidateIf((body: SubscriptionDto) => body.topic_pattern !== undefined)
  @IsText()
  topic_pattern?: string | null;
}
