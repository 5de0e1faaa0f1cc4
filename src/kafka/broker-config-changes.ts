// Broker resources (type 4) of the Kafka config APIs, over the same broker configs as REST's broker-configs and
// brokers/{id}/configs (application/admin/broker-config-admin.service.ts): a resource name that is a broker id is
// that broker's configs, the empty name is the cluster-wide defaults, as in Kafka. Authorization: DESCRIBE_CONFIGS
// or ALTER_CONFIGS on the cluster (CLUSTER_AUTHORIZATION_FAILED otherwise).
import type { BrokerConfigChange, BrokerConfigDescription } from '../config/broker-configs.js';
import type { BrokerConfigScope } from '../topic/dynamic-broker-configs.service.js';
import { KafkaErrorCode } from './protocol/error-codes.js';
import { authorized, CLUSTER } from './kafka-authorization.js';
import { kafkaFailure, type KafkaFailure } from './kafka-errors.js';
import type { KafkaRequestContext } from './kafka-handler.js';

const NONE: KafkaFailure = { errorCode: KafkaErrorCode.NONE, errorMessage: '' };

/** The scope a broker resource name stands for, or why it stands for none. */
export function brokerScope(resourceName: string): BrokerConfigScope | KafkaFailure {
  if (resourceName === '') return { kind: 'default' };
  if (!/^\d{1,10}$/.test(resourceName) || Number(resourceName) > 2 ** 31 - 1) {
    return {
      errorCode: KafkaErrorCode.INVALID_REQUEST,
      errorMessage: `Broker resource name ${resourceName} is not a broker id (or empty, for the cluster default)`,
    };
  }
  return { kind: 'broker', brokerId: Number(resourceName) };
}

function isFailure(value: BrokerConfigScope | KafkaFailure): value is KafkaFailure {
  return 'errorCode' in value;
}

/** A broker resource's configs (DescribeConfigs), or the failure to answer with. */
export async function describeBrokerResource(
  context: KafkaRequestContext,
  resourceName: string,
): Promise<BrokerConfigDescription[] | KafkaFailure> {
  if (!authorized(context, 'DescribeConfigs', 'DESCRIBE_CONFIGS', CLUSTER)) {
    return {
      errorCode: KafkaErrorCode.CLUSTER_AUTHORIZATION_FAILED,
      errorMessage: 'not authorized to DESCRIBE_CONFIGS',
    };
  }
  const scope = brokerScope(resourceName);
  if (isFailure(scope)) return scope;
  const admin = context.services.brokerConfigAdmin;
  try {
    return scope.kind === 'default' ? admin.describeDefaults() : await admin.describeBroker(scope.brokerId);
  } catch (error) {
    return kafkaFailure(error);
  }
}

/**
 * Applies the changes `plan` computes from the resource's current dynamic configs (AlterConfigs replaces them all,
 * IncrementalAlterConfigs changes the ones named), unless validateOnly.
 */
export async function alterBrokerResource(
  context: KafkaRequestContext,
  api: string,
  resourceName: string,
  validateOnly: boolean,
  plan: (current: Readonly<Record<string, string>>) => BrokerConfigChange[] | KafkaFailure,
): Promise<KafkaFailure> {
  if (!authorized(context, api, 'ALTER_CONFIGS', CLUSTER)) {
    return { errorCode: KafkaErrorCode.CLUSTER_AUTHORIZATION_FAILED, errorMessage: 'not authorized to ALTER_CONFIGS' };
  }
  const scope = brokerScope(resourceName);
  if (isFailure(scope)) return scope;
  const { brokerConfigs, brokerConfigAdmin } = context.services;
  const current = scope.kind === 'default' ? brokerConfigs.defaults() : brokerConfigs.brokerLayer(scope.brokerId);
  const changes = plan(current);
  if (!Array.isArray(changes)) return changes;
  try {
    await brokerConfigAdmin.alter(scope, changes, validateOnly);
    return NONE;
  } catch (error) {
    return kafkaFailure(error);
  }
}
