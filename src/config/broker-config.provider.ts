// The injection token for the validated BrokerConfig.
export const BROKER_CONFIG = Symbol('BROKER_CONFIG');
