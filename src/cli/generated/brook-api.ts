// Generated from openapi.yaml by `npm run generate:client` (openapi-typescript). Do not edit by hand:
// change openapi.yaml and regenerate; a unit test fails when this file is out of date.
export interface paths {
  '/brokers': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List broker ids (v2) */
    get: operations['v2ListBrokers'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/compatibility/subjects/{subject}/versions': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The subject (by Confluent's default strategy `<topic>-key` or `<topic>-value`). */
        subject: components['parameters']['RegistrySubject'];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Test a schema against a subject's versions
     * @description Whether the schema could be registered under the subject now: checked against its live versions at its compatibility level (the latest only, unless the level is transitive).
     */
    post: operations['registryTestCompatibilityWithAll'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/compatibility/subjects/{subject}/versions/{version}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The subject (by Confluent's default strategy `<topic>-key` or `<topic>-value`). */
        subject: components['parameters']['RegistrySubject'];
        /** @description A version from 1 to 2^31-1, or `latest` (also -1). */
        version: components['parameters']['RegistryVersion'];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Test a schema against a version
     * @description Whether the schema is compatible with that version at the subject's compatibility level; a subject without versions is compatible with anything (`latest`).
     */
    post: operations['registryTestCompatibility'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/config': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get the global compatibility level
     * @description The level subjects without their own are checked at (BACKWARD unless set).
     */
    get: operations['registryGetGlobalConfig'];
    /** Set the global compatibility level */
    put: operations['registrySetGlobalConfig'];
    post?: never;
    /**
     * Delete the global compatibility level
     * @description The default (BACKWARD) applies again; answers the level deleted.
     */
    delete: operations['registryDeleteGlobalConfig'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/config/{subject}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The subject (by Confluent's default strategy `<topic>-key` or `<topic>-value`). */
        subject: components['parameters']['RegistrySubject'];
      };
      cookie?: never;
    };
    /** Get a subject's compatibility level */
    get: operations['registryGetSubjectConfig'];
    /** Set a subject's compatibility level */
    put: operations['registrySetSubjectConfig'];
    post?: never;
    /**
     * Delete a subject's compatibility level
     * @description The global level applies to the subject again; answers the level deleted.
     */
    delete: operations['registryDeleteSubjectConfig'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/console': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Brook Console, the web console (also at /console/)
     * @description The console's single page (static, built by `npm run build`), served by every broker unless `BROOK_CONSOLE_ENABLED=false` (then 404). Public like `/openapi.yaml`: the page holds no data, and every call it makes to the API carries the user's credentials. `Cache-Control: no-cache`, so a new build is picked up at once.
     */
    get: operations['getConsole'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/console/assets/{file}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A script, style or font of Brook Console
     * @description A content-hashed file of the console's build; only files of the build loaded at start-up are served. `Cache-Control: public, max-age=31536000, immutable`.
     */
    get: operations['getConsoleAsset'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/consumers/{group_name}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The consumer group name (1 to 255 characters).
         * @example orders-processor
         */
        group_name: components['parameters']['GroupName'];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Create consumer instance (v2)
     * @description Creates a consumer instance in the group. `base_uri` is the URL of the instance (on this broker's advertised
     *     address; any broker of the cluster serves it). An instance idle for longer than `consumer.instance.timeout.ms`
     *     is removed. Values may be given as JSON strings, as Confluent's clients send them.
     */
    post: operations['v2CreateConsumer'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/consumers/{group_name}/instances/{instance}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The consumer group name (1 to 255 characters).
         * @example orders-processor
         */
        group_name: components['parameters']['GroupName'];
        /**
         * @description The consumer instance id, as returned by `instance_id` on creation.
         * @example consumer-1
         */
        instance: components['parameters']['InstanceName'];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Delete consumer instance (v2)
     * @description Destroys the instance: it leaves the group (a rebalance follows) and, with `auto.commit.enable`, first
     *     commits the offsets of the records it returned.
     */
    delete: operations['v2DeleteConsumer'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/consumers/{group_name}/instances/{instance}/assignments': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The consumer group name (1 to 255 characters).
         * @example orders-processor
         */
        group_name: components['parameters']['GroupName'];
        /**
         * @description The consumer instance id, as returned by `instance_id` on creation.
         * @example consumer-1
         */
        instance: components['parameters']['InstanceName'];
      };
      cookie?: never;
    };
    /**
     * Get assigned partitions (v2)
     * @description The partitions the instance reads: its manual assignment, or what the group assigned it in the current
     *     generation (empty while a rebalance is in progress or without a subscription), of the topics the caller may
     *     DESCRIBE.
     */
    get: operations['v2GetAssignments'];
    put?: never;
    /**
     * Assign partitions (v2)
     * @description Manually assigns partitions to the instance (no group membership, no rebalancing), replacing any previous
     *     manual assignment.
     */
    post: operations['v2AssignPartitions'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/consumers/{group_name}/instances/{instance}/offsets': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The consumer group name (1 to 255 characters).
         * @example orders-processor
         */
        group_name: components['parameters']['GroupName'];
        /**
         * @description The consumer instance id, as returned by `instance_id` on creation.
         * @example consumer-1
         */
        instance: components['parameters']['InstanceName'];
      };
      cookie?: never;
    };
    /**
     * Get committed offsets (v2)
     * @description The group's stored (next-to-read) offsets for the given partitions; partitions without a committed offset,
     *     and those of topics the caller may not DESCRIBE, are left out. The partitions are given as `partition=topic:p` query parameters or, as in Confluent's API, as
     *     a JSON body `{"partitions": [{"topic", "partition"}]}` (at most 1 MiB), which many HTTP clients cannot send
     *     with GET.
     */
    get: operations['v2GetCommittedOffsets'];
    put?: never;
    /**
     * Commit offsets (v2)
     * @description Commits offsets for the group, with Confluent's semantics: each `offset` is that of the last processed record
     *     and `offset + 1` is stored. An empty body (or empty `offsets`) commits, for every partition, one past the
     *     last record returned to the client. A subscribed instance may commit only partitions it owns in the current
     *     generation, read in that generation (40903 otherwise: poll again after the rebalance).
     */
    post: operations['v2CommitOffsets'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/consumers/{group_name}/instances/{instance}/positions': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The consumer group name (1 to 255 characters).
         * @example orders-processor
         */
        group_name: components['parameters']['GroupName'];
        /**
         * @description The consumer instance id, as returned by `instance_id` on creation.
         * @example consumer-1
         */
        instance: components['parameters']['InstanceName'];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Seek to offsets (v2)
     * @description Sets the offset the next poll reads from, for partitions assigned to the instance.
     */
    post: operations['v2SeekToOffsets'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/consumers/{group_name}/instances/{instance}/positions/beginning': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The consumer group name (1 to 255 characters).
         * @example orders-processor
         */
        group_name: components['parameters']['GroupName'];
        /**
         * @description The consumer instance id, as returned by `instance_id` on creation.
         * @example consumer-1
         */
        instance: components['parameters']['InstanceName'];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Seek to beginning (v2)
     * @description Moves the positions of the given assigned partitions to their log start offsets.
     */
    post: operations['v2SeekToBeginning'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/consumers/{group_name}/instances/{instance}/positions/end': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The consumer group name (1 to 255 characters).
         * @example orders-processor
         */
        group_name: components['parameters']['GroupName'];
        /**
         * @description The consumer instance id, as returned by `instance_id` on creation.
         * @example consumer-1
         */
        instance: components['parameters']['InstanceName'];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Seek to end (v2)
     * @description Moves the positions of the given assigned partitions to their high watermarks (new records only).
     */
    post: operations['v2SeekToEnd'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/consumers/{group_name}/instances/{instance}/records': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The consumer group name (1 to 255 characters).
         * @example orders-processor
         */
        group_name: components['parameters']['GroupName'];
        /**
         * @description The consumer instance id, as returned by `instance_id` on creation.
         * @example consumer-1
         */
        instance: components['parameters']['InstanceName'];
      };
      cookie?: never;
    };
    /**
     * Consume records (v2)
     * @description Fetches records from the assigned partitions, starting at each partition's position (the committed offset,
     *     else per `auto.offset.reset`). Answers as soon as `fetch.min.bytes` are available, or after `timeout` with
     *     what there is (possibly nothing). The answer's content type is the instance's embedded format:
     *     `application/vnd.kafka.binary.v2+json` (keys, values base64), `application/vnd.kafka.json.v2+json` (keys,
     *     values as JSON) or `application/vnd.kafka.{avro,jsonschema,protobuf}.v2+json` (keys and values decoded with
     *     their schemas, with `key_schema_id` and `value_schema_id`). Unlike Confluent, every record carries `timestamp` and `headers`. Concurrent polls of one
     *     instance are served one after the other. Every record answered is of a topic the caller may READ at the
     *     moment it is read: the poll checks again at each round of its wait, and answers 403 (40301) when a partition
     *     assigned to the instance is of a topic it may not read (what it had collected before, if anything, instead).
     */
    get: operations['v2ConsumeRecords'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/consumers/{group_name}/instances/{instance}/subscription': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The consumer group name (1 to 255 characters).
         * @example orders-processor
         */
        group_name: components['parameters']['GroupName'];
        /**
         * @description The consumer instance id, as returned by `instance_id` on creation.
         * @example consumer-1
         */
        instance: components['parameters']['InstanceName'];
      };
      cookie?: never;
    };
    /**
     * Get subscribed topics (v2)
     * @description The subscribed topics (a pattern subscription lists the topics it currently matches) that the caller may DESCRIBE; empty when none.
     */
    get: operations['v2GetSubscription'];
    put?: never;
    /**
     * Subscribe (v2)
     * @description Subscribes the instance to a list of topics or to a topic pattern (a regular expression matched against
     *     whole topic names); it then joins the group and receives partitions from the group's assignor. Replaces any
     *     previous subscription. A pattern is Kafka's Java regular expression run by RE2 (linear time: no pattern can
     *     stall the broker), without back-references, look-around, possessive quantifiers and atomic groups; it matches
     *     only topics the subscriber may DESCRIBE (Kafka's rule), checked again at every group tick, so a topic created
     *     later or an ACL granted later is picked up, and at most 10000 topics (the first in name order).
     */
    post: operations['v2Subscribe'];
    /**
     * Unsubscribe (v2)
     * @description Removes the subscription (and any manual assignment); the instance leaves the group's assignment.
     */
    delete: operations['v2Unsubscribe'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/healthz': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Liveness probe
     * @description Answers 200 as long as the process serves HTTP.
     */
    get: operations['checkLiveness'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/metrics': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Prometheus metrics
     * @description This broker's metrics in the Prometheus text format: messages and bytes in and out per topic, HTTP requests, latency histograms and errors per route template and error code, consumer group lag per group and partition, partitions led, active controller, under-replicated partitions, offline partitions (on the active controller), ISR shrinks and expands, open WebSockets, their subscriptions and SSE streams, and process metrics. With authentication on, the scraper authenticates like any client; with the authorizer on it needs DESCRIBE on the cluster.
     */
    get: operations['getMetrics'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/mode': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Get the global mode */
    get: operations['registryGetGlobalMode'];
    /**
     * Set the global mode
     * @description READWRITE (the default), READONLY (no registrations or deletions) or IMPORT (registrations with the ids and versions given, for migrating a registry; `force=true` when schemas exist already).
     */
    put: operations['registrySetGlobalMode'];
    post?: never;
    /**
     * Delete the global mode
     * @description READWRITE applies again; answers the mode deleted.
     */
    delete: operations['registryDeleteGlobalMode'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/mode/{subject}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The subject (by Confluent's default strategy `<topic>-key` or `<topic>-value`). */
        subject: components['parameters']['RegistrySubject'];
      };
      cookie?: never;
    };
    /** Get a subject's mode */
    get: operations['registryGetSubjectMode'];
    /** Set a subject's mode */
    put: operations['registrySetSubjectMode'];
    post?: never;
    /**
     * Delete a subject's mode
     * @description The global mode applies to the subject again; answers the mode deleted.
     */
    delete: operations['registryDeleteSubjectMode'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/openapi.json': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** This OpenAPI document (JSON) */
    get: operations['getOpenApiJson'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/openapi.yaml': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** This OpenAPI document (YAML) */
    get: operations['getOpenApiYaml'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/readyz': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Readiness probe
     * @description Ready when the coordination store is reachable and cluster metadata has been loaded.
     */
    get: operations['checkReadiness'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/schemas/ids/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The schema's global id. */
        id: components['parameters']['RegistrySchemaId'];
      };
      cookie?: never;
    };
    /**
     * Get a schema by its id
     * @description The schema a global id names; soft-deleted versions keep their ids readable.
     */
    get: operations['registryGetSchemaById'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/schemas/ids/{id}/schema': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The schema's global id. */
        id: components['parameters']['RegistrySchemaId'];
      };
      cookie?: never;
    };
    /** Get the schema text of an id */
    get: operations['registryGetSchemaTextById'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/schemas/ids/{id}/subjects': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The schema's global id. */
        id: components['parameters']['RegistrySchemaId'];
      };
      cookie?: never;
    };
    /** List the subjects that hold an id */
    get: operations['registryGetSubjectsOfId'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/schemas/ids/{id}/versions': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The schema's global id. */
        id: components['parameters']['RegistrySchemaId'];
      };
      cookie?: never;
    };
    /** List the subject versions that hold an id */
    get: operations['registryGetVersionsOfId'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/schemas/types': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List the schema types */
    get: operations['registrySchemaTypes'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/subjects': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List subjects
     * @description The subjects that have a live version (soft-deleted ones too with `deleted=true`), sorted.
     */
    get: operations['registryListSubjects'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/subjects/{subject}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The subject (by Confluent's default strategy `<topic>-key` or `<topic>-value`). */
        subject: components['parameters']['RegistrySubject'];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Look up a schema under a subject
     * @description The version of the subject that holds this schema (compared as Confluent's registry compares them: by canonical text, or normalized text with `normalize=true` or the subject's `normalize` setting).
     */
    post: operations['registryLookUpSchema'];
    /**
     * Delete a subject
     * @description Soft-deletes every live version of the subject (its schema ids stay readable), or with `permanent=true` removes every version that was soft-deleted first, with the subject's compatibility and mode. Answers the versions deleted.
     */
    delete: operations['registryDeleteSubject'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/subjects/{subject}/versions': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The subject (by Confluent's default strategy `<topic>-key` or `<topic>-value`). */
        subject: components['parameters']['RegistrySubject'];
      };
      cookie?: never;
    };
    /** List a subject's versions */
    get: operations['registryListVersions'];
    put?: never;
    /**
     * Register a schema under a subject
     * @description Registers the schema as the subject's next version and answers its global id. A schema the subject already
     *     has answers its id and writes nothing; the same schema under another subject gets the same id. A new
     *     version must be compatible with the subject's live versions at its compatibility level (409 otherwise).
     *     `id` (and `version`) may be given in IMPORT mode only. Any broker takes the request; it is carried out by
     *     the broker leading `_schemas`, and answered once the broker that took it has the new version.
     */
    post: operations['registryRegisterSchema'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/subjects/{subject}/versions/{version}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The subject (by Confluent's default strategy `<topic>-key` or `<topic>-value`). */
        subject: components['parameters']['RegistrySubject'];
        /** @description A version from 1 to 2^31-1, or `latest` (also -1). */
        version: components['parameters']['RegistryVersion'];
      };
      cookie?: never;
    };
    /** Get a version of a subject */
    get: operations['registryGetVersion'];
    put?: never;
    post?: never;
    /**
     * Delete a version of a subject
     * @description Soft-deletes the version (its schema id stays readable), or with `permanent=true` removes a version that was soft-deleted first. Answers the version deleted.
     */
    delete: operations['registryDeleteVersion'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/subjects/{subject}/versions/{version}/referencedby': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The subject (by Confluent's default strategy `<topic>-key` or `<topic>-value`). */
        subject: components['parameters']['RegistrySubject'];
        /** @description A version from 1 to 2^31-1, or `latest` (also -1). */
        version: components['parameters']['RegistryVersion'];
      };
      cookie?: never;
    };
    /** List the schemas that reference a version */
    get: operations['registryReferencedBy'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/subjects/{subject}/versions/{version}/schema': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The subject (by Confluent's default strategy `<topic>-key` or `<topic>-value`). */
        subject: components['parameters']['RegistrySubject'];
        /** @description A version from 1 to 2^31-1, or `latest` (also -1). */
        version: components['parameters']['RegistryVersion'];
      };
      cookie?: never;
    };
    /**
     * Get the schema text of a version
     * @description The schema text alone, as registered (an Avro or JSON Schema document, or a `.proto` file).
     */
    get: operations['registryGetVersionSchema'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/topics': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List topic names (v2)
     * @description The names of the topics the caller may describe. Internal topics (`__consumer_offsets`) are left out unless `include_internal=true`, as Confluent's proxy lists them; they stay reachable by name.
     */
    get: operations['v2ListTopics'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/topics/{topic_name}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The topic name. */
        topic_name: components['parameters']['TopicName'];
      };
      cookie?: never;
    };
    /** Get topic (v2) */
    get: operations['v2GetTopic'];
    put?: never;
    /**
     * Produce to topic (v2)
     * @description Produces the records; each goes to its `partition`, or is partitioned by key (murmur2, as Kafka's default
     *     partitioner) or spread when it has none. The answer is 200 with one `offsets[]` entry per record, in order;
     *     a record that failed has `partition` and `offset` null and carries `error_code` and `error` (as Confluent).
     *     The embedded format is binary (base64 keys and values) unless the content type is
     *     `application/vnd.kafka.json.v2+json` (JSON values) or a schema format (`application/vnd.kafka.avro.v2+json`,
     *     `jsonschema`, `protobuf`): then `key_schema` / `value_schema` (an inline schema, looked up or registered
     *     under `<topic>-key` / `<topic>-value`) or `key_schema_id` / `value_schema_id` name the schemas, records are
     *     stored in Confluent's wire format, and the answer gives the schema ids. 42201 keys without a key schema,
     *     42202 values without a value schema, 42203 data that does not match its schema, 42205 an inline schema
     *     that does not parse, 42207 a schema id that names no schema of the format's type.
     */
    post: operations['v2ProduceToTopic'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/topics/{topic_name}/partitions': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The topic name. */
        topic_name: components['parameters']['TopicName'];
      };
      cookie?: never;
    };
    /** List partitions (v2) */
    get: operations['v2ListPartitions'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/topics/{topic_name}/partitions/{partition_id}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The partition id. */
        partition_id: components['parameters']['PartitionId'];
        /** @description The topic name. */
        topic_name: components['parameters']['TopicName'];
      };
      cookie?: never;
    };
    /** Get partition (v2) */
    get: operations['v2GetPartition'];
    put?: never;
    /**
     * Produce to partition (v2)
     * @description Produces the records to the partition in the path (a record's own `partition`, if any, is ignored). The
     *     answer is as for producing to a topic: 200 with one `offsets[]` entry per record, in order, failures
     *     reported in-line with `error_code` and `error`.
     */
    post: operations['v2ProduceToPartition'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/topics/{topic_name}/partitions/{partition_id}/offsets': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The partition id. */
        partition_id: components['parameters']['PartitionId'];
        /** @description The topic name. */
        topic_name: components['parameters']['TopicName'];
      };
      cookie?: never;
    };
    /**
     * Get partition offsets (v2)
     * @description `beginning_offset` is the log start offset, `end_offset` the high watermark.
     */
    get: operations['v2GetPartitionOffsets'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/clusters': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List clusters
     * @description Returns the cluster this broker belongs to (always exactly one).
     */
    get: operations['listClusters'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/clusters/{cluster_id}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
      };
      cookie?: never;
    };
    /**
     * Get cluster
     * @description The `controller` relationship names the current controller broker.
     */
    get: operations['getCluster'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/clusters/{cluster_id}/acls': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
      };
      cookie?: never;
    };
    /**
     * Search ACLs
     * @description The ACLs matching every given parameter (absent or ANY matches all; pattern_type MATCH returns the ACLs that apply to resource_name: literal, wildcard and prefixes). Needs DESCRIBE on the cluster.
     */
    get: operations['searchAcls'];
    put?: never;
    /**
     * Create an ACL
     * @description Stores one ACL binding (creating an existing one again changes nothing). Needs ALTER on the cluster.
     */
    post: operations['createAcls'];
    /**
     * Delete ACLs
     * @description Deletes every ACL matching the parameters (as for the search; resource_type is required, ANY allowed) and answers the deleted ACLs. Needs ALTER on the cluster.
     */
    delete: operations['deleteAcls'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/clusters/{cluster_id}/acls:batch': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Batch create ACLs
     * @description Stores every ACL binding of `data` (at most 1000); one entry missing a field or outside an enum refuses the whole batch, naming it. Needs ALTER on the cluster.
     */
    post: operations['batchCreateAcls'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/clusters/{cluster_id}/broker-configs': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
      };
      cookie?: never;
    };
    /**
     * List cluster-wide broker configs
     * @description Returns the cluster-wide dynamic broker configs that are set (Kafka's BROKER resource with an empty name, as DescribeConfigs shows it): the defaults every broker takes unless it has its own dynamic value. Needs DESCRIBE_CONFIGS on the cluster.
     */
    get: operations['listClusterConfigs'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/clusters/{cluster_id}/broker-configs:alter': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Batch alter cluster-wide broker configs
     * @description Sets (`operation` SET or absent) or removes (`operation: DELETE`) cluster-wide dynamic broker configs, all
     *     or none; every broker acts on the result without a restart. With `validate_only: true` the change is only
     *     validated. Needs ALTER_CONFIGS on the cluster.
     */
    post: operations['updateClusterConfigs'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/clusters/{cluster_id}/broker-configs/{name}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /** @description The config name, such as `retention.ms`. */
        name: components['parameters']['ConfigName'];
      };
      cookie?: never;
    };
    /** Get a cluster-wide broker config */
    get: operations['getClusterConfig'];
    /** Set a cluster-wide broker config */
    put: operations['updateClusterConfig'];
    post?: never;
    /**
     * Reset a cluster-wide broker config
     * @description Removes the cluster-wide value; brokers go back to their own dynamic, static or default value.
     */
    delete: operations['deleteClusterConfig'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/clusters/{cluster_id}/brokers': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
      };
      cookie?: never;
    };
    /**
     * List brokers
     * @description Returns the live brokers of the cluster.
     */
    get: operations['listBrokers'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/clusters/{cluster_id}/brokers/-/configs': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
      };
      cookie?: never;
    };
    /**
     * List every live broker's configs
     * @description The configs of each live broker, by broker id, as `GET .../brokers/{broker_id}/configs` lists them.
     */
    get: operations['listAllBrokerConfigs'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/clusters/{cluster_id}/brokers/{broker_id}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The broker id. */
        broker_id: components['parameters']['BrokerId'];
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
      };
      cookie?: never;
    };
    /** Get broker */
    get: operations['getBroker'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/clusters/{cluster_id}/brokers/{broker_id}/configs': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The broker id. */
        broker_id: components['parameters']['BrokerId'];
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
      };
      cookie?: never;
    };
    /**
     * List a broker's configs
     * @description Every broker config of a live broker under Kafka's name, with its effective value and source: DYNAMIC_BROKER_CONFIG (this broker's dynamic value), DYNAMIC_DEFAULT_BROKER_CONFIG (cluster-wide), STATIC_BROKER_CONFIG (its environment at start-up) or DEFAULT_CONFIG. Read-only configs are read once at start-up. Needs DESCRIBE_CONFIGS on the cluster.
     */
    get: operations['listBrokerConfigs'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/clusters/{cluster_id}/brokers/{broker_id}/configs:alter': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The broker id. */
        broker_id: components['parameters']['BrokerId'];
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Batch alter a broker's configs
     * @description Sets or removes dynamic configs of one broker, all or none; the broker acts on the result without a
     *     restart. With `validate_only: true` the change is only validated. Needs ALTER_CONFIGS on the cluster.
     */
    post: operations['updateBrokerConfigs'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/clusters/{cluster_id}/brokers/{broker_id}/configs/{name}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The broker id. */
        broker_id: components['parameters']['BrokerId'];
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /** @description The config name, such as `retention.ms`. */
        name: components['parameters']['ConfigName'];
      };
      cookie?: never;
    };
    /** Get a broker's config */
    get: operations['getBrokerConfig'];
    /** Set a broker's dynamic config */
    put: operations['updateBrokerConfig'];
    post?: never;
    /**
     * Reset a broker's dynamic config
     * @description Removes the broker's dynamic value; it goes back to the cluster-wide, static or default value.
     */
    delete: operations['deleteBrokerConfig'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/clusters/{cluster_id}/brokers/{broker_id}/partition-replicas': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The broker id. */
        broker_id: components['parameters']['BrokerId'];
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
      };
      cookie?: never;
    };
    /**
     * Search replicas by broker
     * @description Returns the partition replicas the broker holds, of the topics the caller may DESCRIBE.
     */
    get: operations['searchReplicasByBroker'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/clusters/{cluster_id}/client-quotas': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
      };
      cookie?: never;
    };
    /**
     * List client quotas
     * @description Every entity with quotas set (Kafka's kafka-configs.sh --entity-type users --describe). Needs DESCRIBE_CONFIGS on the cluster.
     */
    get: operations['listClientQuotas'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/clusters/{cluster_id}/client-quotas/{entity}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /** @description The principal (`User:alice`) or `<default>` for every principal without quotas of its own. */
        entity: string;
      };
      cookie?: never;
    };
    /**
     * Get a client quota
     * @description Needs DESCRIBE_CONFIGS on the cluster.
     */
    get: operations['getClientQuota'];
    /**
     * Set a client quota
     * @description Replaces the entity's quotas (a quota left out or null is removed). Enforced by every broker on its own traffic, as Kafka's: `producer_byte_rate` on produce request bodies, `consumer_byte_rate` on consume response bodies, `request_rate` on every authenticated request, each with a burst of one second. A client over a quota gets 429 (42901) with `Retry-After` until its debt is paid; a streaming produce is read at the quota rate instead. Needs ALTER_CONFIGS on the cluster.
     */
    put: operations['setClientQuota'];
    post?: never;
    /**
     * Delete a client quota
     * @description Needs ALTER_CONFIGS on the cluster.
     */
    delete: operations['deleteClientQuota'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/clusters/{cluster_id}/consumer-groups': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
      };
      cookie?: never;
    };
    /**
     * List consumer groups
     * @description Returns the consumer groups of the cluster (every group that is not dead), sorted by id.
     */
    get: operations['listConsumerGroups'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/clusters/{cluster_id}/consumer-groups/{consumer_group_id}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /**
         * @description The consumer group id.
         * @example orders-processor
         */
        consumer_group_id: components['parameters']['ConsumerGroupId'];
      };
      cookie?: never;
    };
    /** Get consumer group */
    get: operations['getConsumerGroup'];
    put?: never;
    post?: never;
    /**
     * Delete consumer group (Brook)
     * @description Brook's own: deletes the group and its committed offsets (as `kafka-consumer-groups --delete`). Only a group
     *     without members and without v2 consumer instances can be deleted.
     */
    delete: operations['deleteConsumerGroup'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/clusters/{cluster_id}/consumer-groups/{consumer_group_id}/consumers': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /**
         * @description The consumer group id.
         * @example orders-processor
         */
        consumer_group_id: components['parameters']['ConsumerGroupId'];
      };
      cookie?: never;
    };
    /**
     * List consumers
     * @description Returns the current members of the group, sorted by consumer id.
     */
    get: operations['listConsumers'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/clusters/{cluster_id}/consumer-groups/{consumer_group_id}/consumers/{consumer_id}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /**
         * @description The consumer group id.
         * @example orders-processor
         */
        consumer_group_id: components['parameters']['ConsumerGroupId'];
        /** @description The consumer (group member) id. */
        consumer_id: components['parameters']['ConsumerId'];
      };
      cookie?: never;
    };
    /** Get consumer */
    get: operations['getConsumer'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/clusters/{cluster_id}/consumer-groups/{consumer_group_id}/consumers/{consumer_id}/assignments': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /**
         * @description The consumer group id.
         * @example orders-processor
         */
        consumer_group_id: components['parameters']['ConsumerGroupId'];
        /** @description The consumer (group member) id. */
        consumer_id: components['parameters']['ConsumerId'];
      };
      cookie?: never;
    };
    /**
     * List consumer assignments
     * @description Returns the partitions assigned to the consumer in the group's current generation, of the topics the caller may DESCRIBE.
     */
    get: operations['listConsumerAssignments'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/clusters/{cluster_id}/consumer-groups/{consumer_group_id}/consumers/{consumer_id}/assignments/{topic_name}/partitions/{partition_id}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /**
         * @description The consumer group id.
         * @example orders-processor
         */
        consumer_group_id: components['parameters']['ConsumerGroupId'];
        /** @description The consumer (group member) id. */
        consumer_id: components['parameters']['ConsumerId'];
        /** @description The partition id. */
        partition_id: components['parameters']['PartitionId'];
        /** @description The topic name. */
        topic_name: components['parameters']['TopicName'];
      };
      cookie?: never;
    };
    /**
     * Get a consumer assignment
     * @description Returns one partition assigned to the consumer in the group's current generation.
     */
    get: operations['getConsumerAssignment'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/clusters/{cluster_id}/consumer-groups/{consumer_group_id}/lag-summary': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /**
         * @description The consumer group id.
         * @example orders-processor
         */
        consumer_group_id: components['parameters']['ConsumerGroupId'];
      };
      cookie?: never;
    };
    /**
     * Get consumer group lag summary
     * @description The maximum and the total lag of the group, over the topics the caller may DESCRIBE. With no lags at all,
     *     `max_lag` and `total_lag` are 0, `max_lag_partition_id` is -1 and the `max_lag_*` names are empty strings.
     */
    get: operations['getConsumerGroupLagSummary'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/clusters/{cluster_id}/consumer-groups/{consumer_group_id}/lags': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /**
         * @description The consumer group id.
         * @example orders-processor
         */
        consumer_group_id: components['parameters']['ConsumerGroupId'];
      };
      cookie?: never;
    };
    /**
     * List consumer lags
     * @description Returns the lag of every partition the group has committed offsets for or a member owns, sorted by topic and
     *     partition: `log_end_offset` (the high watermark) minus `current_offset` (the committed offset, -1 when
     *     nothing is committed yet; the lag is then counted from the log start). Only topics the caller may DESCRIBE
     *     are listed.
     */
    get: operations['listConsumerLags'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/clusters/{cluster_id}/consumer-groups/{consumer_group_id}/lags/{topic_name}/partitions/{partition_id}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /**
         * @description The consumer group id.
         * @example orders-processor
         */
        consumer_group_id: components['parameters']['ConsumerGroupId'];
        /** @description The partition id. */
        partition_id: components['parameters']['PartitionId'];
        /** @description The topic name. */
        topic_name: components['parameters']['TopicName'];
      };
      cookie?: never;
    };
    /** Get consumer lag */
    get: operations['getConsumerLag'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/clusters/{cluster_id}/consumer-groups/{consumer_group_id}/offsets:reset': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /**
         * @description The consumer group id.
         * @example orders-processor
         */
        consumer_group_id: components['parameters']['ConsumerGroupId'];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Reset consumer group offsets (Brook)
     * @description Brook's own, as `kafka-consumer-groups --reset-offsets`: computes a new committed offset for each chosen
     *     partition (every partition of the listed `topics`, or of the listed `partitions`; without `topics`, every
     *     partition the group has committed), clamped to the log, and stores them unless `dry_run` is true, which is
     *     the default (then only the plan is returned). The group must have no active members; with `topics` it need
     *     not exist yet (its offsets are then created).
     */
    post: operations['resetConsumerGroupOffsets'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/clusters/{cluster_id}/producers': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Get an idempotent producer id
     * @description Hands out a new producer id with epoch 0 (Kafka's InitProducerId without a transactional id) for the
     *     `Brook-Producer-Id`, `Brook-Producer-Epoch` and `Brook-Producer-Sequence` headers of produce requests. Ids
     *     are unique in the cluster: each broker takes blocks of 1000 from a counter in the coordination store, which
     *     only moves up, and keeps each block it takes, before handing out its ids, in the data dirs of every live
     *     broker, so that a block is never taken twice, even after Redis lost everything while the broker that took
     *     the highest block was down. Needs an authenticated principal only; each produce still needs WRITE on its topic. The body
     *     is an empty JSON object, `{}` (a v3 write without a body is 42206, as everywhere under /v3/).
     */
    post: operations['initProducerId'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/clusters/{cluster_id}/status': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
      };
      cookie?: never;
    };
    /**
     * Cluster status (Brook addition)
     * @description Brook addition, not in Confluent's REST Proxy. The brokers with their incarnation (`broker_epoch`, a new one
     *     at every start) and liveness, the controller and its epoch, and the partitions' health, as the broker
     *     answering sees them: the registrations and the controller lease from the coordination store, each live
     *     broker asked for its part through the internal routes (at most 2 s each; gathered at most once a second).
     *     A broker holding replicas but not registered is listed with `alive: false`. Needs an authenticated caller
     *     only (like the broker list).
     */
    get: operations['getClusterStatus'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/clusters/{cluster_id}/topic-stats': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
      };
      cookie?: never;
    };
    /**
     * Topic statistics (Brook addition)
     * @description Brook addition, not in Confluent's REST Proxy. For every topic the caller may DESCRIBE (internal ones
     *     included, marked): the size on disk and record count of each partition, as its leader reports them, and
     *     their sums; and the records and bytes produced and fetched per second, summed over the brokers that serve
     *     the topic's clients (each broker's rates over its last 10 s, `rates_from_brokers` lists the brokers whose
     *     rates are included). A partition's `record_count` is `high_watermark - log_start_offset`: the records of a
     *     topic that is not compacted; for a compacted topic (`compacted: true`) it counts offsets, some of whose
     *     records compaction may have removed. Values of a partition whose leader did not answer are null, and so
     *     are the topic's sums. Gathered as for the cluster status (at most once a second).
     */
    get: operations['listTopicStats'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/clusters/{cluster_id}/topics': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
      };
      cookie?: never;
    };
    /**
     * List topics
     * @description The topics of the cluster that the caller may describe. Internal topics (`__consumer_offsets`) are left out unless `include_internal=true`, as Confluent's proxy lists them; they stay reachable by name.
     */
    get: operations['listTopics'];
    put?: never;
    /**
     * Create topic
     * @description Creates a topic. With `validate_only: true` nothing is created and the would-be topic is returned with 200.
     */
    post: operations['createTopic'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/clusters/{cluster_id}/topics/-/configs': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
      };
      cookie?: never;
    };
    /**
     * List every topic's configs
     * @description Returns the configs of every topic the caller may DESCRIBE_CONFIGS (internal topics included), by topic name, as the list of one topic's configs.
     */
    get: operations['listAllTopicConfigs'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/clusters/{cluster_id}/topics/-/partitions/-/leader-election': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Elect partition leaders (Brook)
     * @description Brook's own, as Kafka's ElectLeaders request and `kafka-leader-election.sh`. `PREFERRED` makes each
     *     partition's preferred replica (the first of its replicas) the leader when it is live and in the ISR.
     *     `UNCLEAN` elects a leader only for a partition that has none: a live ISR member if there is one, else any
     *     live replica, which may lose the records only the old ISR had. Without `partitions`, every partition of every
     *     topic. Answers per partition with the leader, or `error`, one of Kafka's: `ELECTION_NOT_NEEDED` (the
     *     preferred replica already leads; for UNCLEAN, the leader is live), `PREFERRED_LEADER_NOT_AVAILABLE` (not
     *     live or not in the ISR), `ELIGIBLE_LEADERS_NOT_AVAILABLE` (no live replica), `UNKNOWN_TOPIC_OR_PARTITION`.
     *     Every election bumps the partition's leader epoch.
     */
    post: operations['electLeaders'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/clusters/{cluster_id}/topics/-/partitions/-/reassignment': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
      };
      cookie?: never;
    };
    /**
     * List partition reassignments of the cluster
     * @description Returns every partition reassignment in progress (Confluent REST Proxy v3).
     */
    get: operations['listClusterPartitionReassignments'];
    put?: never;
    /**
     * Start or cancel partition reassignments (Brook)
     * @description Brook's own (Confluent has no write route; this is Kafka's AlterPartitionReassignments, KIP-455). For each
     *     entry, `replicas` is the partition's new replica list (its first broker is the preferred leader), or `null`
     *     to cancel the reassignment in progress, which goes back to the replicas it had before. The controller
     *     persists the request and carries it out step by step: it adds the new replicas, waits until every target
     *     replica is in the ISR, moves leadership to a target replica if needed (a new leader epoch), then removes the
     *     old replicas, whose brokers delete their copy; a new controller resumes where the old one stopped. A new
     *     target for a partition already being reassigned replaces the old target. As in Kafka, the replication
     *     factor may change. The request is all or nothing: one invalid entry and nothing is started. Answers 202 with
     *     the reassignments as they start; follow them with the GET routes (a completed reassignment is no longer
     *     listed).
     */
    post: operations['alterPartitionReassignments'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/clusters/{cluster_id}/topics/{topic_name}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /** @description The topic name. */
        topic_name: components['parameters']['TopicName'];
      };
      cookie?: never;
    };
    /** Get topic */
    get: operations['getTopic'];
    put?: never;
    post?: never;
    /** Delete topic */
    delete: operations['deleteTopic'];
    options?: never;
    head?: never;
    /**
     * Update partition count
     * @description Increases the number of partitions of the topic and returns the updated topic.
     */
    patch: operations['updateTopicPartitionCount'];
    trace?: never;
  };
  '/v3/clusters/{cluster_id}/topics/{topic_name}/configs': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /** @description The topic name. */
        topic_name: components['parameters']['TopicName'];
      };
      cookie?: never;
    };
    /**
     * List topic configs
     * @description Returns every topic-level config (Kafka's dotted names) with its effective value and source.
     */
    get: operations['listTopicConfigs'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/clusters/{cluster_id}/topics/{topic_name}/configs:alter': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /** @description The topic name. */
        topic_name: components['parameters']['TopicName'];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Batch alter topic configs
     * @description Sets (`operation` SET or absent) or resets to default (`operation: DELETE`) several configs at once,
     *     atomically. With `validate_only: true` the change is only validated.
     */
    post: operations['updateTopicConfigBatch'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/clusters/{cluster_id}/topics/{topic_name}/configs/{name}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /** @description The config name, such as `retention.ms`. */
        name: components['parameters']['ConfigName'];
        /** @description The topic name. */
        topic_name: components['parameters']['TopicName'];
      };
      cookie?: never;
    };
    /** Get topic config */
    get: operations['getTopicConfig'];
    /** Update topic config */
    put: operations['updateTopicConfig'];
    post?: never;
    /**
     * Reset topic config
     * @description Resets the config to its default value (removes the topic-level override).
     */
    delete: operations['deleteTopicConfig'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/clusters/{cluster_id}/topics/{topic_name}/partitions': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /** @description The topic name. */
        topic_name: components['parameters']['TopicName'];
      };
      cookie?: never;
    };
    /** List partitions */
    get: operations['listPartitions'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/clusters/{cluster_id}/topics/{topic_name}/partitions/-/reassignment': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /** @description The topic name. */
        topic_name: components['parameters']['TopicName'];
      };
      cookie?: never;
    };
    /**
     * List partition reassignments of a topic
     * @description Returns the reassignments in progress of the topic's partitions (Confluent REST Proxy v3).
     */
    get: operations['listTopicPartitionReassignments'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/clusters/{cluster_id}/topics/{topic_name}/partitions/{partition_id}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /** @description The partition id. */
        partition_id: components['parameters']['PartitionId'];
        /** @description The topic name. */
        topic_name: components['parameters']['TopicName'];
      };
      cookie?: never;
    };
    /** Get partition */
    get: operations['getPartition'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/clusters/{cluster_id}/topics/{topic_name}/partitions/{partition_id}/offset': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /** @description The partition id. */
        partition_id: components['parameters']['PartitionId'];
        /** @description The topic name. */
        topic_name: components['parameters']['TopicName'];
      };
      cookie?: never;
    };
    /**
     * List partition offsets
     * @description Returns the earliest offset (log start) and the latest offset (high watermark: the offset the next
     *     committed record will get) of the partition. As in Confluent's spec.
     */
    get: operations['listPartitionOffsets'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/clusters/{cluster_id}/topics/{topic_name}/partitions/{partition_id}/reassignment': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /** @description The partition id. */
        partition_id: components['parameters']['PartitionId'];
        /** @description The topic name. */
        topic_name: components['parameters']['TopicName'];
      };
      cookie?: never;
    };
    /**
     * Get a partition's reassignment
     * @description Returns the partition's reassignment in progress (Confluent REST Proxy v3); 404 when there is none.
     */
    get: operations['getPartitionReassignment'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/clusters/{cluster_id}/topics/{topic_name}/partitions/{partition_id}/records': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /** @description The partition id. */
        partition_id: components['parameters']['PartitionId'];
        /** @description The topic name. */
        topic_name: components['parameters']['TopicName'];
      };
      cookie?: never;
    };
    /**
     * Read records (Brook)
     * @description Brook's stateless read of one partition, without a consumer group. The start position is one of `offset`,
     *     `timestamp` or `from`. Answers as soon as records are available; when there are none yet, long-polls up to
     *     `wait_ms` and then answers an empty `records` array. Only committed records (below the high watermark) are
     *     returned. To read on, call again with `offset=next_offset`.
     *
     *     With `Accept: application/vnd.brook.batches` the body is instead the raw Kafka v2 record batches as stored
     *     (no re-encoding, possibly starting before the requested offset since batches are not split); the position
     *     is then given by the `X-Brook-Next-Offset` and `X-Brook-High-Watermark` headers.
     */
    get: operations['readRecords'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/clusters/{cluster_id}/topics/{topic_name}/partitions/{partition_id}/replicas': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /** @description The partition id. */
        partition_id: components['parameters']['PartitionId'];
        /** @description The topic name. */
        topic_name: components['parameters']['TopicName'];
      };
      cookie?: never;
    };
    /**
     * List replicas
     * @description Returns the replicas of the partition, with leadership and in-sync state.
     */
    get: operations['listReplicas'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/clusters/{cluster_id}/topics/{topic_name}/partitions/{partition_id}/replicas/{broker_id}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The broker id. */
        broker_id: components['parameters']['BrokerId'];
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /** @description The partition id. */
        partition_id: components['parameters']['PartitionId'];
        /** @description The topic name. */
        topic_name: components['parameters']['TopicName'];
      };
      cookie?: never;
    };
    /**
     * Get a replica
     * @description Returns the partition's replica on the broker, with leadership and in-sync state.
     */
    get: operations['getReplica'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/clusters/{cluster_id}/topics/{topic_name}/records': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /** @description The topic name. */
        topic_name: components['parameters']['TopicName'];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Produce records
     * @description Produces one record and answers its delivery report (`error_code` 200 on success).
     *
     *     **Streaming mode.** With `Transfer-Encoding: chunked` the request body is a stream of concatenated JSON
     *     records (each a `ProduceRequest`), and the response (status 200, also chunked, same content type) is a
     *     stream of delivery reports (each a `ProduceResponse`), in request order, each written as soon as that
     *     record is acknowledged and followed by CRLF (`\r\n`), as Confluent writes them: a line reader gets one
     *     report per line. A failed record is reported in-stream with its own `error_code` (not 200) and `message`,
     *     and the stream goes on.
     *
     *     Errors found before the first report (unknown topic, a stream that ends without a record: 42206) are
     *     answered with the HTTP status below and an `Error` body.
     */
    post: operations['produceRecord'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/clusters/{cluster_id}/topics/{topic_name}/records:batch': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /** @description The topic name. */
        topic_name: components['parameters']['TopicName'];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Produce records batch
     * @description Produces a batch of records, each with a client-chosen `id` unique within the batch. The 207 answer lists
     *     a delivery report for each record that was produced (`successes`) and an error for each that was not
     *     (`failures`), matched by `id`.
     */
    post: operations['produceRecordsBatch'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v3/clusters/{cluster_id}/topics/{topic_name}/records:stream': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /** @description The topic name. */
        topic_name: components['parameters']['TopicName'];
      };
      cookie?: never;
    };
    /**
     * Stream records as Server-Sent Events (Brook)
     * @description Every partition of the topic as a `text/event-stream`, for browsers (`EventSource`) and `curl -N`. One
     *     event per record: `id:` is the record's position `partition:offset`, `data:` the record JSON (the record
     *     shape of the read route, plus `topic`). Records of one partition arrive in offset order. A comment line
     *     (`: heartbeat`) is sent at the start and every `BROOK_SSE_HEARTBEAT_MS` (15 s). On reconnect, the
     *     `Last-Event-ID` header resumes each partition it names one past the named offset; it may list several
     *     positions (`0:41,1:17`), and partitions it does not name start where `from` says. A partition that cannot be
     *     streamed any more (topic deleted, offset removed by retention) ends the stream with an `event: error`
     *     whose data is `{error_code, message}`. Nothing more is read from the log while the client is not reading.
     *     With `group=`, the stream is a member of that consumer group (as a WebSocket group subscription is): it
     *     streams only the partitions the group assigns it, announced as `event: assigned` (data `{partitions:
     *     [{topic, partition}], generation}`) and `event: revoked` (data `{partitions}`) at each rebalance; a newly
     *     assigned partition starts at the group's committed offset, else where `from` says; `Last-Event-ID` does not
     *     apply. The broker commits for the client (SSE has no way back), as Kafka's auto-commit does: every
     *     `BROOK_SSE_AUTO_COMMIT_INTERVAL_MS` (5 s) and when the stream closes, the position the stream had reached one
     *     interval earlier, so a record is committed only once the stream stayed open an interval after it was
     *     written; records of the last interval before a close are delivered again to the next member (at least
     *     once). A partition that cannot be streamed any more ends the stream. The open stream keeps the member
     *     alive; closing it leaves the group. Needs READ on the group as well as on the topic.
     *
     *     Security for the stream's whole life: every record is of a topic the principal may READ at the moment it is
     *     sent, and the stream's rights and credential are checked again every `BROOK_STREAM_REAUTHORIZE_INTERVAL_MS`
     *     (5 s) and at once when the broker learns of an ACL change (made on any broker) or reloads the users file; a
     *     revoked right, a user or API key removed from the users file or an expired client certificate ends the
     *     stream with an `event: error` (`error_code` 40301). The bytes of the events count against the principal's
     *     `consumer_byte_rate` quota, the same bucket as its REST reads and WebSocket deliveries: over it, events are
     *     held back (never dropped, the stream stays open) and an `event: throttled` (data `{quota, wait_ms}`) says a
     *     throttle began.
     */
    get: operations['streamRecords'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    AbstractConfigData: components['schemas']['Resource'] & {
      cluster_id: string;
      is_default: boolean;
      is_read_only: boolean;
      is_sensitive: boolean;
      name: string;
      source: components['schemas']['ConfigSource'];
      synonyms: components['schemas']['ConfigSynonymData'][];
      /** @description The effective value; null when sensitive or unset. */
      value?: string | null;
    };
    AclData: components['schemas']['Resource'] & {
      cluster_id: string;
      /** @description * or a client IP address. */
      host: string;
      /** @constant */
      kind?: 'KafkaAcl';
      /** @enum {string} */
      operation:
        'ALL' | 'READ' | 'WRITE' | 'CREATE' | 'DELETE' | 'ALTER' | 'DESCRIBE' | 'DESCRIBE_CONFIGS' | 'ALTER_CONFIGS';
      /** @enum {string} */
      pattern_type: 'LITERAL' | 'PREFIXED';
      /** @enum {string} */
      permission: 'ALLOW' | 'DENY';
      /** @description User:<name>, or User:* for every principal. */
      principal: string;
      /** @description A topic, group or schema registry subject name, a prefix (PREFIXED), * for all (LITERAL), or kafka-cluster. */
      resource_name: string;
      /** @enum {string} */
      resource_type: 'TOPIC' | 'GROUP' | 'CLUSTER' | 'SUBJECT';
    };
    AclDataList: components['schemas']['ResourceCollection'] & {
      data: components['schemas']['AclData'][];
      /** @constant */
      kind?: 'KafkaAclList';
    };
    AlterConfigBatchRequestData: {
      data: {
        name: string;
        /**
         * @description SET (the default) sets `value`; DELETE resets the config to its default.
         * @enum {string|null}
         */
        operation?: 'SET' | 'DELETE' | null;
        value?: string | null;
      }[];
      /** @description Only validate the change; alter nothing. */
      validate_only?: boolean;
    };
    AlterPartitionReassignmentsRequestData: {
      partitions: {
        /** Format: int32 */
        partition_id: number;
        /** @description The new replicas, the preferred leader first; null cancels the reassignment in progress. */
        replicas: number[] | null;
        topic_name: string;
      }[];
    };
    BrokerConfigData: components['schemas']['AbstractConfigData'] & {
      broker_id: number;
      /** @constant */
      kind?: 'KafkaBrokerConfig';
    };
    BrokerConfigDataList: components['schemas']['ResourceCollection'] & {
      data: components['schemas']['BrokerConfigData'][];
      /** @constant */
      kind?: 'KafkaBrokerConfigList';
    };
    BrokerData: components['schemas']['Resource'] & {
      /** Format: int32 */
      broker_id: number;
      cluster_id: string;
      configs: components['schemas']['Relationship'];
      host?: string | null;
      /** @constant */
      kind?: 'KafkaBroker';
      partition_replicas: components['schemas']['Relationship'];
      port?: number | null;
      rack?: string | null;
    };
    BrokerDataList: components['schemas']['ResourceCollection'] & {
      data: components['schemas']['BrokerData'][];
      /** @constant */
      kind?: 'KafkaBrokerList';
    };
    /** @description Brook addition (GET /v3/clusters/{cluster_id}/status). */
    BrookClusterStatus: {
      brokers: {
        /** @description Registered (heartbeating); false for a broker that holds replicas but is gone. */
        alive: boolean;
        /** @description The broker's incarnation, raised at every start; null when not registered. */
        broker_epoch: number | null;
        broker_id: number;
        is_controller: boolean;
        /** @description The advertised Kafka listener (host:port); null when off or not registered. */
        kafka_listener: string | null;
        /** @description Whether the broker answered for its part of the statistics. */
        stats_reported: boolean;
        /** @description The advertised HTTP URL; null for a broker that is not registered. */
        url: string | null;
      }[];
      cluster_id: string;
      /** @description The controller and its epoch (the fencing token of its writes); null while none is elected. */
      controller: null | {
        broker_id: number;
        epoch: number;
      };
      /** @constant */
      kind: 'BrookClusterStatus';
      /** @description Partitions without a leader. */
      offline_partitions: number;
      partitions_count: number;
      /** @description Topics, internal ones included. */
      topics_count: number;
      /** @description Partitions whose ISR is smaller than their replica list, in the whole cluster. */
      under_replicated_partitions: number;
    };
    /** @description Brook addition (an entry of GET /v3/clusters/{cluster_id}/topic-stats). */
    BrookTopicStats: {
      /** @description Whether `cleanup.policy` includes compact (record counts then count offsets). */
      compacted: boolean;
      fetch_bytes_per_second: number;
      fetch_records_per_second: number;
      is_internal: boolean;
      partitions: {
        high_watermark: number | null;
        leader_id: number | null;
        log_start_offset: number | null;
        partition_id: number;
        /** @description high_watermark - log_start_offset (offsets, for a compacted topic). */
        record_count: number | null;
        /** @description Size of the leader's log on disk (every segment file of the partition). */
        size_bytes: number | null;
      }[];
      produce_bytes_per_second: number;
      produce_records_per_second: number;
      /** @description The brokers whose rates are summed (those that answered and have sampled for a while). */
      rates_from_brokers: number[];
      /** @description Sum of the partitions' record counts; null when one is unknown. */
      record_count: number | null;
      /** @description Sum of the partitions' sizes on disk (their leaders' logs); null when one is unknown. */
      size_bytes: number | null;
      topic_name: string;
      /** @description The topic's partitions whose ISR is smaller than their replica list (from the metadata). */
      under_replicated_partitions: number;
    };
    /** @description Brook addition (GET /v3/clusters/{cluster_id}/topic-stats). */
    BrookTopicStatsList: components['schemas']['ResourceCollection'] & {
      data: components['schemas']['BrookTopicStats'][];
      /** @constant */
      kind?: 'BrookTopicStatsList';
    };
    ClientQuotaData: components['schemas']['Resource'] & {
      cluster_id: string;
      consumer_byte_rate: number | null;
      /** @description User:<name> or <default>. */
      entity: string;
      /** @constant */
      kind?: 'KafkaClientQuota';
      producer_byte_rate: number | null;
      request_rate: number | null;
    };
    ClientQuotaDataList: components['schemas']['ResourceCollection'] & {
      data: components['schemas']['ClientQuotaData'][];
      /** @constant */
      kind?: 'KafkaClientQuotaList';
    };
    ClientQuotaValues: {
      /** @description Consume response-body bytes per second. */
      consumer_byte_rate?: number | null;
      /** @description Produce request-body bytes per second. */
      producer_byte_rate?: number | null;
      /** @description Requests per second. */
      request_rate?: number | null;
    };
    ClusterConfigData: components['schemas']['AbstractConfigData'] & {
      /** @enum {string} */
      config_type: 'BROKER';
      /** @constant */
      kind?: 'KafkaClusterConfig';
    };
    ClusterConfigDataList: components['schemas']['ResourceCollection'] & {
      data: components['schemas']['ClusterConfigData'][];
      /** @constant */
      kind?: 'KafkaClusterConfigList';
    };
    ClusterData: components['schemas']['Resource'] & {
      acls: components['schemas']['Relationship'];
      broker_configs: components['schemas']['Relationship'];
      brokers: components['schemas']['Relationship'];
      cluster_id: string;
      consumer_groups: components['schemas']['Relationship'];
      /** @description The current controller, `.../brokers/{broker_id}`; null while none is elected. */
      controller?: components['schemas']['Relationship'] | null;
      /** @constant */
      kind?: 'KafkaCluster';
      partition_reassignments: components['schemas']['Relationship'];
      topics: components['schemas']['Relationship'];
    };
    ClusterDataList: components['schemas']['ResourceCollection'] & {
      data: components['schemas']['ClusterData'][];
      /** @constant */
      kind?: 'KafkaClusterList';
    };
    ConfigNameValue: {
      name: string;
      value?: string | null;
    };
    /** @enum {string} */
    ConfigSource:
      | 'DYNAMIC_CLUSTER_LINK_CONFIG'
      | 'DYNAMIC_TOPIC_CONFIG'
      | 'DYNAMIC_BROKER_LOGGER_CONFIG'
      | 'DYNAMIC_BROKER_CONFIG'
      | 'DYNAMIC_DEFAULT_BROKER_CONFIG'
      | 'STATIC_BROKER_CONFIG'
      | 'DEFAULT_CONFIG'
      | 'UNKNOWN';
    ConfigSynonymData: {
      name: string;
      source: components['schemas']['ConfigSource'];
      value?: string | null;
    };
    /** @description A record as read; also the shape of v2 consumer records (plus `topic`), WebSocket and SSE records. */
    ConsumedRecord: {
      headers: components['schemas']['RecordHeader'][];
      /** @description The key per `format` (base64 string, JSON value or string), or null. */
      key: unknown;
      key_error?: components['schemas']['RecordFieldError'];
      /** @description In a schema format, the key's schema id (null for a null key or one not in the wire format). */
      key_schema_id?: number | null;
      /** Format: int64 */
      offset: number;
      /** Format: int32 */
      partition: number;
      /**
       * Format: int64
       * @description Epoch milliseconds.
       */
      timestamp: number;
      /** @description The value per `format` (base64 string, JSON value or string), or null. */
      value: unknown;
      value_error?: components['schemas']['RecordFieldError'];
      /** @description In a schema format, the value's schema id. */
      value_schema_id?: number | null;
    };
    ConsumerAssignmentData: components['schemas']['Resource'] & {
      cluster_id: string;
      consumer_group_id: string;
      consumer_id: string;
      /** @constant */
      kind?: 'KafkaConsumerAssignment';
      lag: components['schemas']['Relationship'];
      partition: components['schemas']['Relationship'];
      /** Format: int32 */
      partition_id: number;
      topic_name: string;
    };
    ConsumerAssignmentDataList: components['schemas']['ResourceCollection'] & {
      data: components['schemas']['ConsumerAssignmentData'][];
      /** @constant */
      kind?: 'KafkaConsumerAssignmentList';
    };
    ConsumerData: components['schemas']['Resource'] & {
      assignments: components['schemas']['Relationship'];
      client_id: string;
      cluster_id: string;
      consumer_group_id: string;
      consumer_id: string;
      /** @description The static membership id (`group.instance.id`); null for a dynamic member. */
      instance_id?: string | null;
      /** @constant */
      kind?: 'KafkaConsumer';
    };
    ConsumerDataList: components['schemas']['ResourceCollection'] & {
      data: components['schemas']['ConsumerData'][];
      /** @constant */
      kind?: 'KafkaConsumerList';
    };
    ConsumerGroupData: components['schemas']['Resource'] & {
      cluster_id: string;
      consumer_group_id: string;
      consumers: components['schemas']['Relationship'];
      coordinator: components['schemas']['Relationship'];
      is_mixed_consumer_group: boolean;
      /** @description True for a group that has only committed offsets and never had members. */
      is_simple: boolean;
      /** @constant */
      kind?: 'KafkaConsumerGroup';
      lag_summary: components['schemas']['Relationship'];
      /** @description The assignor the group uses (`range`, `roundrobin` or `sticky`). */
      partition_assignor: string;
      state: components['schemas']['ConsumerGroupState'];
      type: components['schemas']['ConsumerGroupType'];
    };
    ConsumerGroupDataList: components['schemas']['ResourceCollection'] & {
      data: components['schemas']['ConsumerGroupData'][];
      /** @constant */
      kind?: 'KafkaConsumerGroupList';
    };
    ConsumerGroupLagSummaryData: components['schemas']['Resource'] & {
      cluster_id: string;
      consumer_group_id: string;
      /** @constant */
      kind?: 'KafkaConsumerGroupLagSummary';
      /** Format: int64 */
      max_lag: number;
      max_lag_client_id: string;
      max_lag_consumer: components['schemas']['Relationship'];
      /** @description The owner of the partition with the largest lag; empty when it has no owner or no lags. */
      max_lag_consumer_id: string;
      max_lag_instance_id?: string | null;
      max_lag_partition: components['schemas']['Relationship'];
      /**
       * Format: int32
       * @description -1 when the group has no lags.
       */
      max_lag_partition_id: number;
      /** @description Empty when the group has no lags. */
      max_lag_topic_name: string;
      /** Format: int64 */
      total_lag: number;
    };
    ConsumerGroupOffsetResetData: {
      /**
       * Format: int64
       * @description The committed offset before the reset; -1 when the group has committed none.
       */
      current_offset: number;
      /**
       * Format: int64
       * @description The committed offset after the reset (the next offset the group will read).
       */
      new_offset: number;
      /** Format: int32 */
      partition_id: number;
      topic_name: string;
    };
    /**
     * @description Confluent's states; Brook's groups are EMPTY, PREPARING_REBALANCE, COMPLETING_REBALANCE or STABLE.
     * @enum {string}
     */
    ConsumerGroupState:
      | 'UNKNOWN'
      | 'PREPARING_REBALANCE'
      | 'COMPLETING_REBALANCE'
      | 'ASSIGNING'
      | 'RECONCILING'
      | 'STABLE'
      | 'DEAD'
      | 'EMPTY';
    /**
     * @description Confluent's group types; Brook's groups are CLASSIC.
     * @enum {string}
     */
    ConsumerGroupType: 'UNKNOWN' | 'CLASSIC' | 'CONSUMER' | 'SHARE';
    ConsumerLagData: components['schemas']['Resource'] & {
      /** @description The owner's client id; empty when no member owns the partition. */
      client_id: string;
      cluster_id: string;
      consumer_group_id: string;
      /** @description The member that owns the partition; empty when no member does. */
      consumer_id: string;
      /**
       * Format: int64
       * @description The committed offset (the next to read); -1 when the group has committed none.
       */
      current_offset: number;
      /** @description The owner's static membership id; null when it has none or there is no owner. */
      instance_id?: string | null;
      /** @constant */
      kind?: 'KafkaConsumerLag';
      /**
       * Format: int64
       * @description `log_end_offset` minus `current_offset` (from the log start offset when nothing is committed).
       */
      lag: number;
      /**
       * Format: int64
       * @description The high watermark.
       */
      log_end_offset: number;
      /** Format: int32 */
      partition_id: number;
      topic_name: string;
    };
    ConsumerLagDataList: components['schemas']['ResourceCollection'] & {
      data: components['schemas']['ConsumerLagData'][];
      /** @constant */
      kind?: 'KafkaConsumerLagList';
    };
    CreateAclRequestData: {
      /** @description * or a client IP address. */
      host?: string;
      /** @enum {string} */
      operation:
        'ALL' | 'READ' | 'WRITE' | 'CREATE' | 'DELETE' | 'ALTER' | 'DESCRIBE' | 'DESCRIBE_CONFIGS' | 'ALTER_CONFIGS';
      /** @enum {string} */
      pattern_type?: 'LITERAL' | 'PREFIXED';
      /** @enum {string} */
      permission: 'ALLOW' | 'DENY';
      /** @description User:<name>, or User:* for every principal. */
      principal: string;
      /** @description A topic, group or schema registry subject name, a prefix (PREFIXED), * for all (LITERAL), or kafka-cluster. A SUBJECT binding takes READ, WRITE, DELETE, DESCRIBE, ALTER_CONFIGS or ALL. */
      resource_name: string;
      /** @enum {string} */
      resource_type: 'TOPIC' | 'GROUP' | 'CLUSTER' | 'SUBJECT';
    };
    CreateAclRequestDataList: {
      data: components['schemas']['CreateAclRequestData'][];
    };
    CreateTopicRequestData: {
      configs?: components['schemas']['ConfigNameValue'][];
      /**
       * Format: int32
       * @description Defaults to the broker's `num.partitions`.
       */
      partitions_count?: number;
      /**
       * Format: int32
       * @description Defaults to the broker's `default.replication.factor`.
       */
      replication_factor?: number;
      topic_name: string;
      /** @description Only validate the request; create nothing. */
      validate_only?: boolean;
    };
    ElectLeadersRequestData: {
      /** @enum {string} */
      election_type: 'PREFERRED' | 'UNCLEAN';
      /** @description The partitions to elect a leader for; absent or null means every partition of every topic. */
      partitions?:
        | {
            /** Format: int32 */
            partition_id: number;
            topic_name: string;
          }[]
        | null;
    };
    Error: {
      /** @description The HTTP status, or a five-digit Confluent error code (HTTP status * 100 + sub-code). */
      error_code: number;
      message: string;
    };
    HealthStatus: {
      /** @constant */
      status: 'ok';
    };
    LeaderElectionResult: {
      cluster_id: string;
      /** @enum {string} */
      election_type: 'PREFERRED' | 'UNCLEAN';
      /**
       * @description Why no leader was elected (Kafka's error name); null when one was.
       * @enum {string|null}
       */
      error:
        | 'ELECTION_NOT_NEEDED'
        | 'PREFERRED_LEADER_NOT_AVAILABLE'
        | 'ELIGIBLE_LEADERS_NOT_AVAILABLE'
        | 'UNKNOWN_TOPIC_OR_PARTITION'
        | null;
      /** @constant */
      kind: 'KafkaLeaderElectionResult';
      /**
       * Format: int32
       * @description The partition's leader after the election (the one elected, or the one that stays); null when none.
       */
      leader_id: number | null;
      message: string | null;
      /** Format: int32 */
      partition_id: number;
      topic_name: string;
    };
    LeaderElectionResultList: components['schemas']['ResourceCollection'] & {
      data: components['schemas']['LeaderElectionResult'][];
      /** @constant */
      kind?: 'KafkaLeaderElectionResultList';
    };
    PartitionData: components['schemas']['Resource'] & {
      cluster_id: string;
      /** @constant */
      kind?: 'KafkaPartition';
      /** @description The leader replica, `.../partitions/{partition_id}/replicas/{broker_id}` (as Confluent); null while the partition has no leader. */
      leader?: components['schemas']['Relationship'] | null;
      /** Format: int32 */
      partition_id: number;
      reassignment: components['schemas']['Relationship'];
      replicas: components['schemas']['Relationship'];
      topic_name: string;
    };
    PartitionDataList: components['schemas']['ResourceCollection'] & {
      data: components['schemas']['PartitionData'][];
      /** @constant */
      kind?: 'KafkaPartitionList';
    };
    PartitionWithOffsetsData: components['schemas']['Resource'] & {
      cluster_id: string;
      /**
       * Format: int64
       * @description The log start offset.
       */
      earliest_offset: number;
      /** @constant */
      kind?: 'KafkaPartitionWithOffsets';
      /**
       * Format: int64
       * @description The high watermark.
       */
      latest_offset: number;
      /** Format: int32 */
      partition_id: number;
      topic_name: string;
    };
    ProduceBatchRequest: {
      entries: components['schemas']['ProduceBatchRequestEntry'][];
    };
    ProduceBatchRequestEntry: components['schemas']['ProduceRequest'] & {
      /** @description The entry id, unique within the batch. */
      id: string;
    };
    ProduceBatchResponse: {
      failures: components['schemas']['ProduceBatchResponseFailureEntry'][];
      successes: components['schemas']['ProduceBatchResponseSuccessEntry'][];
    };
    ProduceBatchResponseFailureEntry: {
      error_code: number;
      id: string;
      message: string;
      /**
       * @description Only on an entry whose outcome is unknown (it may or may not have been appended; see "Unknown outcomes" above).
       * @enum {string}
       */
      outcome?: 'unknown';
    };
    ProduceBatchResponseSuccessEntry: {
      cluster_id: string;
      id: string;
      key?: components['schemas']['ProduceResponseData'] | null;
      /** Format: int64 */
      offset: number;
      /** Format: int32 */
      partition_id: number;
      /** Format: date-time */
      timestamp: string;
      topic_name: string;
      value?: components['schemas']['ProduceResponseData'] | null;
    };
    /** @description One record. Key, value and headers are optional; a missing key or value is null. */
    ProduceRequest: {
      headers?: components['schemas']['ProduceRequestHeader'][];
      key?: components['schemas']['ProduceRequestData'];
      /**
       * Format: int32
       * @description The partition; when absent, partitioned by key (murmur2), or spread when there is no key.
       */
      partition_id?: number | null;
      /**
       * Format: date-time
       * @description The record timestamp; when absent, the broker's time of append.
       */
      timestamp?: string | null;
      value?: components['schemas']['ProduceRequestData'];
    };
    /** @description A key or value, as Confluent's REST Proxy reads it. `type` BINARY, JSON or STRING gives the bytes as they are. With a schema from the registry, the data is stored in Confluent's wire format: `type` AVRO, JSONSCHEMA or PROTOBUF with an inline `schema` (looked up under the subject, registered there when new), or `schema_id`, or `schema_version` (a version of the subject), or `subject` alone or a schema `type` alone (the subject's latest version). The subject is `subject` when given, else per `subject_name_strategy`. A key or value with no `type` and none of the schema fields is encoded with the latest schema of its subject (TOPIC_NAME) when that subject exists, else as BINARY. Errors: 42205 an inline schema that does not parse, 42203 data that does not match its schema, 42207 a schema that cannot be found or registered. */
    ProduceRequestData: {
      /** @description The data, encoded as `type` says; null or absent for a null key or value. */
      data?: unknown;
      /** @description An inline schema of `type`. */
      schema?: string;
      /**
       * Format: int32
       * @description A registered schema's id.
       */
      schema_id?: number;
      /**
       * Format: int32
       * @description A version of the subject.
       */
      schema_version?: number;
      /** @description The subject, instead of the strategy's. */
      subject?: string;
      /**
       * @description `<topic>-key` / `<topic>-value`, the schema's record name, or `<topic>-<record name>` (an Avro record's full name, a JSON Schema's `title`, a Protobuf message's full name).
       * @default TOPIC_NAME
       * @enum {string}
       */
      subject_name_strategy?: 'TOPIC_NAME' | 'RECORD_NAME' | 'TOPIC_RECORD_NAME';
      /**
       * @description BINARY takes base64 `data`, JSON any JSON value, STRING a string; AVRO (Avro's JSON encoding, unions as `{"string": "x"}`), JSONSCHEMA (a JSON document) and PROTOBUF (proto3 JSON) take data of the schema.
       * @enum {string}
       */
      type?: 'BINARY' | 'JSON' | 'STRING' | 'AVRO' | 'JSONSCHEMA' | 'PROTOBUF';
    } | null;
    ProduceRequestHeader: {
      name: string;
      /** @description The header value, base64-encoded. */
      value?: string | null;
    };
    /** @description A delivery report. On success `error_code` is 200 and the location fields are present; a failed record (streaming mode) has another `error_code` and a `message`. */
    ProduceResponse: {
      cluster_id?: string;
      error_code: number;
      key?: components['schemas']['ProduceResponseData'] | null;
      message?: string;
      /** Format: int64 */
      offset?: number;
      /**
       * @description Only on a failed report whose outcome is unknown (it may or may not have been appended; see "Unknown outcomes" above).
       * @enum {string}
       */
      outcome?: 'unknown';
      /** Format: int32 */
      partition_id?: number;
      /**
       * @description Streaming mode only, with `Idempotency-Key` or the `Brook-Producer-*` headers: this record was appended by an earlier request (the stream's head, written before the records are read, cannot carry `Idempotent-Replayed`); the report is rebuilt from its kept outcome and nothing was appended.
       * @enum {boolean}
       */
      replayed?: true;
      /**
       * Format: date-time
       * @description The record timestamp (RFC 3339).
       */
      timestamp?: string;
      topic_name?: string;
      value?: components['schemas']['ProduceResponseData'] | null;
    };
    ProduceResponseData: {
      /**
       * Format: int32
       * @description With a schema, its id.
       */
      schema_id?: number;
      /**
       * Format: int32
       * @description With a schema, its version under `subject`.
       */
      schema_version?: number;
      /**
       * Format: int64
       * @description The serialized size in bytes.
       */
      size: number;
      /** @description With a schema, the subject that holds it (absent when a `schema_id` names no version of it). */
      subject?: string;
      /** @enum {string} */
      type: 'BINARY' | 'JSON' | 'STRING' | 'AVRO' | 'JSONSCHEMA' | 'PROTOBUF';
    };
    ProducerIdResponse: {
      cluster_id: string;
      /** @constant */
      kind: 'KafkaProducer';
      producer_epoch: number;
      /** Format: int64 */
      producer_id: number;
    };
    ReadinessStatus: {
      checks: {
        /** @description The coordination store (embedded or Redis) is reachable. */
        coordination: boolean;
        /** @description Cluster metadata has been loaded. */
        metadata: boolean;
      };
      /** @enum {string} */
      status: 'ready' | 'not_ready';
    };
    ReadRecordsResponse: {
      /**
       * Format: int64
       * @description The partition's high watermark (one past the last committed record).
       */
      high_watermark: number;
      /**
       * Format: int64
       * @description The offset to read from next (one past the last record returned, or the start if none).
       */
      next_offset: number;
      records: components['schemas']['ConsumedRecord'][];
    };
    ReassignmentData: components['schemas']['Resource'] & {
      /** @description The brokers the partition is being added to. */
      adding_replicas: number[];
      cluster_id: string;
      /** @constant */
      kind?: 'KafkaReassignment';
      /** Format: int32 */
      partition_id: number;
      /** @description The brokers the partition will be removed from once the target replicas are in sync. */
      removing_replicas: number[];
      replicas: components['schemas']['Relationship'];
      /** @description (Brook) The replicas the partition will have, in order, when the reassignment completes. */
      target_replicas?: number[];
      topic_name: string;
    };
    ReassignmentDataList: components['schemas']['ResourceCollection'] & {
      data: components['schemas']['ReassignmentData'][];
      /** @constant */
      kind?: 'KafkaReassignmentList';
    };
    /** @description In a schema format, why a key or value could not be decoded (the field is then null): 40403 its schema id is not in the registry, 42207 it is not in the wire format, its schema is of another type than the format, or the payload does not match the schema. */
    RecordFieldError: {
      error_code: number;
      message: string;
    };
    RecordHeader: {
      name: string;
      /** @description The header value, base64-encoded; null for a null value. */
      value: string | null;
    };
    RegistryCompatibilityCheck: {
      is_compatible: boolean;
      messages?: string[];
    };
    /** @enum {string} */
    RegistryCompatibilityLevel:
      'BACKWARD' | 'BACKWARD_TRANSITIVE' | 'FORWARD' | 'FORWARD_TRANSITIVE' | 'FULL' | 'FULL_TRANSITIVE' | 'NONE';
    RegistryConfig: {
      compatibilityLevel: components['schemas']['RegistryCompatibilityLevel'];
      normalize?: boolean;
    };
    /** @description A compatibility level (any case; `compatibilityLevel` is accepted for `compatibility`) and whether the subject compares schemas normalized. */
    RegistryConfigUpdate: {
      compatibility?: string;
      compatibilityLevel?: string;
      normalize?: boolean;
    };
    RegistryIdResponse: {
      /** Format: int32 */
      id: number;
    };
    RegistryMode: {
      /** @enum {string} */
      mode: 'READWRITE' | 'READONLY' | 'IMPORT';
    };
    RegistrySchemaReference: {
      /** @description The name the schema uses for it (an Avro full name, a JSON Schema `$ref`, a Protobuf import). */
      name: string;
      subject: string;
      /**
       * Format: int32
       * @description The version, or -1 for the latest (stored as the version it names then).
       */
      version: number;
    };
    RegistrySchemaRequest: {
      /**
       * Format: int32
       * @description IMPORT mode only; the id to register the schema under.
       */
      id?: number;
      references?: components['schemas']['RegistrySchemaReference'][];
      /** @description The schema text. */
      schema: string;
      /** @description AVRO when absent. */
      schemaType?: components['schemas']['RegistrySchemaType'];
      /**
       * Format: int32
       * @description IMPORT mode only; the version to register the schema as.
       */
      version?: number;
    };
    RegistrySchemaString: {
      references?: components['schemas']['RegistrySchemaReference'][];
      schema: string;
      /** @description Absent for AVRO. */
      schemaType?: components['schemas']['RegistrySchemaType'];
    };
    /** @enum {string} */
    RegistrySchemaType: 'AVRO' | 'JSON' | 'PROTOBUF';
    RegistrySubjectAndVersion: {
      subject: string;
      /** Format: int32 */
      version: number;
    };
    RegistrySubjectVersion: {
      /** Format: int32 */
      id: number;
      references?: components['schemas']['RegistrySchemaReference'][];
      schema: string;
      /** @description Absent for AVRO, as in Confluent's answers. */
      schemaType?: components['schemas']['RegistrySchemaType'];
      subject: string;
      /** Format: int32 */
      version: number;
    };
    Relationship: {
      /** @description The URL of the related resource or collection. */
      related: string;
    };
    ReplicaData: components['schemas']['Resource'] & {
      broker: components['schemas']['Relationship'];
      /** Format: int32 */
      broker_id: number;
      cluster_id: string;
      is_in_sync: boolean;
      is_leader: boolean;
      /** @constant */
      kind?: 'KafkaReplica';
      /** Format: int32 */
      partition_id: number;
      topic_name: string;
    };
    ReplicaDataList: components['schemas']['ResourceCollection'] & {
      data: components['schemas']['ReplicaData'][];
      /** @constant */
      kind?: 'KafkaReplicaList';
    };
    ResetConsumerGroupOffsetsData: components['schemas']['Resource'] & {
      consumer_group_id: string;
      data: components['schemas']['ConsumerGroupOffsetResetData'][];
      /** @description True when nothing was stored. */
      dry_run: boolean;
      /** @constant */
      kind?: 'BrookConsumerGroupOffsetReset';
    };
    ResetConsumerGroupOffsetsRequestData: {
      /**
       * @description Only compute and return the new offsets; store nothing. True unless set to false.
       * @default true
       */
      dry_run?: boolean;
      /**
       * Format: int64
       * @description Required when `to` is `offset`.
       */
      offset?: number;
      /** @description Required when `to` is `timestamp`; epoch milliseconds or an RFC 3339 date-time. */
      timestamp?: number | string;
      /**
       * @description The new position: the log start offset, the high watermark, `offset` (clamped to the log), or the first record at or after `timestamp` (the high watermark when there is none).
       * @enum {string}
       */
      to: 'earliest' | 'latest' | 'offset' | 'timestamp';
      /** @description The partitions to reset: each topic's `partitions`, or all of its partitions when `partitions` is absent. When absent, every partition the group has committed an offset for. */
      topics?:
        | {
            partitions?: number[] | null;
            topic_name: string;
          }[]
        | null;
    };
    Resource: {
      kind: string;
      metadata: components['schemas']['ResourceMetadata'];
    };
    ResourceCollection: {
      kind: string;
      metadata: components['schemas']['ResourceCollectionMetadata'];
    };
    ResourceCollectionMetadata: {
      /** @description The URL of the next page; Brook does not paginate, so always null. */
      next?: string | null;
      /** @description The URL of this collection. */
      self: string;
    };
    ResourceMetadata: {
      /** @description The resource's CRN, such as `crn:///kafka=brook-1/topic=orders`. */
      resource_name?: string | null;
      /** @description The URL of this resource. */
      self: string;
    };
    TopicConfigData: components['schemas']['AbstractConfigData'] & {
      /** @constant */
      kind?: 'KafkaTopicConfig';
      topic_name: string;
    };
    TopicConfigDataList: components['schemas']['ResourceCollection'] & {
      data: components['schemas']['TopicConfigData'][];
      /** @constant */
      kind?: 'KafkaTopicConfigList';
    };
    TopicData: components['schemas']['Resource'] & {
      cluster_id: string;
      configs: components['schemas']['Relationship'];
      is_internal: boolean;
      /** @constant */
      kind?: 'KafkaTopic';
      partition_reassignments: components['schemas']['Relationship'];
      partitions: components['schemas']['Relationship'];
      /** Format: int32 */
      partitions_count: number;
      /** Format: int32 */
      replication_factor: number;
      topic_name: string;
    };
    TopicDataList: components['schemas']['ResourceCollection'] & {
      data: components['schemas']['TopicData'][];
      /** @constant */
      kind?: 'KafkaTopicList';
    };
    UpdateConfigRequestData: {
      /** @description The new value; null resets the config to its default. */
      value?: string | null;
    };
    UpdatePartitionCountRequestData: {
      /**
       * Format: int32
       * @description The new number of partitions; must be larger than the current one.
       */
      partitions_count: number;
    };
    V2BinaryConsumerRecord: components['schemas']['ConsumedRecord'] & {
      key?: string | null;
      topic: string;
      value?: string | null;
    };
    V2BinaryProduceRecord: {
      key?: string | null;
      /** Format: int32 */
      partition?: number | null;
      value: string | null;
    };
    V2BinaryProduceRequest: {
      records: components['schemas']['V2BinaryProduceRecord'][];
    };
    V2BrokerList: {
      brokers: number[];
    };
    V2CommitOffsets: {
      offsets?: (components['schemas']['V2TopicPartition'] & {
        /** @description Free-form metadata stored with the offset. */
        metadata?: string | null;
        /**
         * Format: int64
         * @description The offset of the last processed record; `offset + 1` is stored.
         */
        offset: number;
      })[];
    };
    V2CommittedOffsets: {
      offsets: (components['schemas']['V2TopicPartition'] & {
        /** @description The metadata stored with the offset (empty when none). */
        metadata: string;
        /**
         * Format: int64
         * @description The stored offset, the next one the group will read.
         */
        offset: number;
      })[];
    };
    V2CommittedPositions: (components['schemas']['V2TopicPartition'] & {
      /**
       * Format: int64
       * @description The stored offset, the next one the group will read.
       */
      committed: number;
      /**
       * Format: int64
       * @description The offset of the last record consumed (the stored offset minus one).
       */
      consumed: number;
    })[];
    V2ConsumerInstance: {
      /**
       * Format: uri
       * @description The URL of the instance; append `/subscription`, `/records`, ... to it.
       */
      base_uri: string;
      instance_id: string;
    };
    /** @description Confluent's consumer instance config. Numbers and booleans may also be given as strings. */
    V2CreateConsumerRequest: {
      /**
       * @description Commit the offsets of returned records automatically (every 5 s, on poll) and on delete.
       * @default true
       * @enum {boolean|string}
       */
      'auto.commit.enable'?: true | false | 'true' | 'false';
      /**
       * @description Where to start a partition without a committed offset (`smallest` and `largest` are the old names of `earliest` and `latest`); with `none`, reading such a partition fails until a position is set.
       * @default latest
       * @enum {string}
       */
      'auto.offset.reset'?: 'earliest' | 'latest' | 'none' | 'smallest' | 'largest';
      /** @description The default `timeout` of a poll, in milliseconds; the broker's default when absent. */
      'consumer.request.timeout.ms'?: number | string;
      /**
       * @description The number of key and value bytes a poll waits for (up to its timeout).
       * @default 1
       */
      'fetch.min.bytes'?: number | string;
      /**
       * @description The embedded format of keys and values: base64 (`binary`), JSON (`json`), or decoded from Confluent's wire format with the registry's schemas (`avro`, `jsonschema`, `protobuf`; see the `format` parameter of the stateless read).
       * @default binary
       * @enum {string}
       */
      format?: 'binary' | 'json' | 'avro' | 'jsonschema' | 'protobuf';
      /**
       * @deprecated
       * @description The legacy name of `name`, used when `name` is absent.
       */
      id?: string;
      /** @description The instance id, unique in the group; a random `rest-consumer-<uuid>` when absent. */
      name?: string;
    };
    V2JsonConsumerRecord: components['schemas']['ConsumedRecord'] & {
      /** @description The key as a JSON value, or null. */
      key?: unknown;
      topic: string;
      /** @description The value as a JSON value, or null. */
      value?: unknown;
    };
    V2JsonProduceRecord: {
      /** @description Any JSON value, or null. */
      key?: unknown;
      /** Format: int32 */
      partition?: number | null;
      /** @description Any JSON value, or null. */
      value: unknown;
    };
    V2JsonProduceRequest: {
      records: components['schemas']['V2JsonProduceRecord'][];
    };
    V2Partition: {
      /**
       * Format: int32
       * @description The leader's broker id; -1 when the partition has no leader (as Confluent).
       */
      leader: number;
      /** Format: int32 */
      partition: number;
      replicas: components['schemas']['V2Replica'][];
    };
    V2PartitionList: components['schemas']['V2Partition'][];
    V2PartitionOffset: {
      /** @description Null on success; otherwise the error message. */
      error: string | null;
      /** @description Null on success; otherwise a five-digit code such as 40403, 50002 or 50003. */
      error_code: number | null;
      /**
       * Format: int64
       * @description The record's offset (-1 with `acks=0`); null if it failed.
       */
      offset: number | null;
      /**
       * @description Only on a failed record whose outcome is unknown (it may or may not have been appended; see "Unknown outcomes" above).
       * @enum {string}
       */
      outcome?: 'unknown';
      /** Format: int32 */
      partition: number | null;
    };
    V2PartitionOffsets: {
      /** Format: int64 */
      beginning_offset: number;
      /** Format: int64 */
      end_offset: number;
    };
    V2ProduceResponse: {
      /** @description The keys' schema id in a schema format; else null. */
      key_schema_id: number | null;
      offsets: components['schemas']['V2PartitionOffset'][];
      /** @description The values' schema id in a schema format; else null. */
      value_schema_id: number | null;
    };
    V2Replica: {
      /** Format: int32 */
      broker: number;
      in_sync: boolean;
      leader: boolean;
    };
    V2SchemaProduceRequest: {
      /** @description The keys' schema (of the content type's schema type), inline. */
      key_schema?: string | null;
      /** @description The keys' registered schema id (a number, or its digits). */
      key_schema_id?: number | string | null;
      records: components['schemas']['V2JsonProduceRecord'][];
      /** @description The values' schema, inline. */
      value_schema?: string | null;
      /** @description The values' registered schema id (a number, or its digits). */
      value_schema_id?: number | string | null;
    };
    V2SeekOffsets: {
      offsets: (components['schemas']['V2TopicPartition'] & {
        /**
         * Format: int64
         * @description The offset the next poll reads from.
         */
        offset: number;
      })[];
    };
    /** @description Either `topics` or `topic_pattern`. */
    V2SubscriptionRequest: {
      /** @description A regular expression (RE2 syntax) that topic names must match entirely; it matches only topics the subscriber may describe. */
      topic_pattern?: string;
      topics?: string[];
    } & (unknown | unknown);
    V2Topic: {
      /** @description Every topic config, by name, with its effective value (null when sensitive). */
      configs: {
        [key: string]: string | null;
      };
      name: string;
      partitions: components['schemas']['V2PartitionList'];
    };
    V2TopicNameList: string[];
    V2TopicPartition: {
      /** Format: int32 */
      partition: number;
      topic: string;
    };
    V2TopicPartitionList: {
      partitions: components['schemas']['V2TopicPartition'][];
    };
    V2TopicSubscription: {
      topics: string[];
    };
  };
  responses: {
    /** @description Bad request; `error_code` is 400 or a five-digit code such as 40002. */
    BadRequest: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description Conflict with the resource's current state; `error_code` is a 409xx code such as 40904. */
    Conflict: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "error_code": 40904,
         *       "message": "Consumer group orders-processor has active members; stop them first."
         *     }
         */
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description The outcome of the election, per partition. */
    ElectLeadersResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['LeaderElectionResultList'];
      };
    };
    /** @description The authenticated principal lacks the ACL this operation needs (40301), when `BROOK_AUTHORIZER_ENABLE`. */
    Forbidden: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "error_code": 40301,
         *       "message": "User:bob is not authorized to WRITE topic 'orders'."
         *     }
         */
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description A broker config. */
    GetBrokerConfigResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['BrokerConfigData'];
      };
    };
    /** @description The broker. */
    GetBrokerResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['BrokerData'];
      };
    };
    /** @description A cluster-wide broker config. */
    GetClusterConfigResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ClusterConfigData'];
      };
    };
    /** @description The cluster. */
    GetClusterResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "kind": "KafkaCluster",
         *       "metadata": {
         *         "self": "http://localhost:8082/v3/clusters/brook-1",
         *         "resource_name": "crn:///kafka=brook-1"
         *       },
         *       "cluster_id": "brook-1",
         *       "controller": {
         *         "related": "http://localhost:8082/v3/clusters/brook-1/brokers/1"
         *       },
         *       "acls": {
         *         "related": "http://localhost:8082/v3/clusters/brook-1/acls"
         *       },
         *       "brokers": {
         *         "related": "http://localhost:8082/v3/clusters/brook-1/brokers"
         *       },
         *       "broker_configs": {
         *         "related": "http://localhost:8082/v3/clusters/brook-1/broker-configs"
         *       },
         *       "consumer_groups": {
         *         "related": "http://localhost:8082/v3/clusters/brook-1/consumer-groups"
         *       },
         *       "topics": {
         *         "related": "http://localhost:8082/v3/clusters/brook-1/topics"
         *       },
         *       "partition_reassignments": {
         *         "related": "http://localhost:8082/v3/clusters/brook-1/topics/-/partitions/-/reassignment"
         *       }
         *     }
         */
        'application/json': components['schemas']['ClusterData'];
      };
    };
    /** @description The assigned partition. */
    GetConsumerAssignmentResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ConsumerAssignmentData'];
      };
    };
    /** @description The maximum and total lag of the group. */
    GetConsumerGroupLagSummaryResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "kind": "KafkaConsumerGroupLagSummary",
         *       "metadata": {
         *         "self": "http://localhost:8082/v3/clusters/brook-1/consumer-groups/orders-processor/lag-summary",
         *         "resource_name": "crn:///kafka=brook-1/consumer-group=orders-processor/lag-summary"
         *       },
         *       "cluster_id": "brook-1",
         *       "consumer_group_id": "orders-processor",
         *       "max_lag_consumer_id": "consumer-1",
         *       "max_lag_instance_id": null,
         *       "max_lag_client_id": "consumer-1",
         *       "max_lag_topic_name": "orders",
         *       "max_lag_partition_id": 1,
         *       "max_lag": 8,
         *       "total_lag": 11,
         *       "max_lag_consumer": {
         *         "related": "http://localhost:8082/v3/clusters/brook-1/consumer-groups/orders-processor/consumers/consumer-1"
         *       },
         *       "max_lag_partition": {
         *         "related": "http://localhost:8082/v3/clusters/brook-1/topics/orders/partitions/1"
         *       }
         *     }
         */
        'application/json': components['schemas']['ConsumerGroupLagSummaryData'];
      };
    };
    /** @description The consumer group. */
    GetConsumerGroupResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "kind": "KafkaConsumerGroup",
         *       "metadata": {
         *         "self": "http://localhost:8082/v3/clusters/brook-1/consumer-groups/orders-processor",
         *         "resource_name": "crn:///kafka=brook-1/consumer-group=orders-processor"
         *       },
         *       "cluster_id": "brook-1",
         *       "consumer_group_id": "orders-processor",
         *       "is_simple": false,
         *       "partition_assignor": "range",
         *       "state": "STABLE",
         *       "type": "CLASSIC",
         *       "is_mixed_consumer_group": false,
         *       "coordinator": {
         *         "related": "http://localhost:8082/v3/clusters/brook-1/brokers/1"
         *       },
         *       "consumers": {
         *         "related": "http://localhost:8082/v3/clusters/brook-1/consumer-groups/orders-processor/consumers"
         *       },
         *       "lag_summary": {
         *         "related": "http://localhost:8082/v3/clusters/brook-1/consumer-groups/orders-processor/lag-summary"
         *       }
         *     }
         */
        'application/json': components['schemas']['ConsumerGroupData'];
      };
    };
    /** @description The lag of the group on the partition. */
    GetConsumerLagResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "kind": "KafkaConsumerLag",
         *       "metadata": {
         *         "self": "http://localhost:8082/v3/clusters/brook-1/consumer-groups/orders-processor/lags/orders/partitions/1",
         *         "resource_name": "crn:///kafka=brook-1/consumer-group=orders-processor/lag=orders/partition=1"
         *       },
         *       "cluster_id": "brook-1",
         *       "consumer_group_id": "orders-processor",
         *       "topic_name": "orders",
         *       "partition_id": 1,
         *       "current_offset": 42,
         *       "log_end_offset": 50,
         *       "lag": 8,
         *       "consumer_id": "consumer-1",
         *       "instance_id": null,
         *       "client_id": "consumer-1"
         *     }
         */
        'application/json': components['schemas']['ConsumerLagData'];
      };
    };
    /** @description The consumer. */
    GetConsumerResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "kind": "KafkaConsumer",
         *       "metadata": {
         *         "self": "http://localhost:8082/v3/clusters/brook-1/consumer-groups/orders-processor/consumers/consumer-1",
         *         "resource_name": "crn:///kafka=brook-1/consumer-group=orders-processor/consumer=consumer-1"
         *       },
         *       "cluster_id": "brook-1",
         *       "consumer_group_id": "orders-processor",
         *       "consumer_id": "consumer-1",
         *       "instance_id": null,
         *       "client_id": "consumer-1",
         *       "assignments": {
         *         "related": "http://localhost:8082/v3/clusters/brook-1/consumer-groups/orders-processor/consumers/consumer-1/assignments"
         *       }
         *     }
         */
        'application/json': components['schemas']['ConsumerData'];
      };
    };
    /** @description The partition. */
    GetPartitionResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['PartitionData'];
      };
    };
    /** @description The partition's reassignment. */
    GetReassignmentResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "kind": "KafkaReassignment",
         *       "metadata": {
         *         "self": "http://localhost:8082/v3/clusters/brook-1/topics/orders/partitions/0/reassignment",
         *         "resource_name": "crn:///kafka=brook-1/topic=orders/partition=0"
         *       },
         *       "cluster_id": "brook-1",
         *       "topic_name": "orders",
         *       "partition_id": 0,
         *       "adding_replicas": [
         *         4
         *       ],
         *       "removing_replicas": [
         *         1
         *       ],
         *       "target_replicas": [
         *         2,
         *         3,
         *         4
         *       ],
         *       "replicas": {
         *         "related": "http://localhost:8082/v3/clusters/brook-1/topics/orders/partitions/0/replicas"
         *       }
         *     }
         */
        'application/json': components['schemas']['ReassignmentData'];
      };
    };
    /** @description The replica. */
    GetReplicaResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ReplicaData'];
      };
    };
    /** @description The topic config. */
    GetTopicConfigResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['TopicConfigData'];
      };
    };
    /** @description The topic. */
    GetTopicResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "kind": "KafkaTopic",
         *       "metadata": {
         *         "self": "http://localhost:8082/v3/clusters/brook-1/topics/orders",
         *         "resource_name": "crn:///kafka=brook-1/topic=orders"
         *       },
         *       "cluster_id": "brook-1",
         *       "topic_name": "orders",
         *       "is_internal": false,
         *       "replication_factor": 3,
         *       "partitions_count": 6,
         *       "partitions": {
         *         "related": "http://localhost:8082/v3/clusters/brook-1/topics/orders/partitions"
         *       },
         *       "configs": {
         *         "related": "http://localhost:8082/v3/clusters/brook-1/topics/orders/configs"
         *       },
         *       "partition_reassignments": {
         *         "related": "http://localhost:8082/v3/clusters/brook-1/topics/orders/partitions/-/reassignment"
         *       }
         *     }
         */
        'application/json': components['schemas']['TopicData'];
      };
    };
    /** @description The list of broker configs. */
    ListBrokerConfigsResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['BrokerConfigDataList'];
      };
    };
    /** @description The list of brokers. */
    ListBrokersResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['BrokerDataList'];
      };
    };
    /** @description The cluster-wide broker configs that are set. */
    ListClusterConfigsResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ClusterConfigDataList'];
      };
    };
    /** @description The list of clusters. */
    ListClustersResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ClusterDataList'];
      };
    };
    /** @description The partitions assigned to the consumer. */
    ListConsumerAssignmentsResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ConsumerAssignmentDataList'];
      };
    };
    /** @description The list of consumer groups. */
    ListConsumerGroupsResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ConsumerGroupDataList'];
      };
    };
    /** @description The lag of each partition of the group. */
    ListConsumerLagsResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ConsumerLagDataList'];
      };
    };
    /** @description The list of consumers (members) of the group. */
    ListConsumersResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ConsumerDataList'];
      };
    };
    /** @description The earliest and latest offsets of the partition. */
    ListPartitionOffsetsResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "kind": "KafkaPartitionWithOffsets",
         *       "metadata": {
         *         "self": "http://localhost:8082/v3/clusters/brook-1/topics/orders/partitions/1/offset",
         *         "resource_name": "crn:///kafka=brook-1/topic=orders/partition=1/offset_type=earliest_and_latest"
         *       },
         *       "cluster_id": "brook-1",
         *       "topic_name": "orders",
         *       "partition_id": 1,
         *       "earliest_offset": 10,
         *       "latest_offset": 100
         *     }
         */
        'application/json': components['schemas']['PartitionWithOffsetsData'];
      };
    };
    /** @description The list of partitions. */
    ListPartitionsResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['PartitionDataList'];
      };
    };
    /** @description The partition reassignments in progress. */
    ListReassignmentsResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ReassignmentDataList'];
      };
    };
    /** @description The list of replicas. */
    ListReplicasResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ReplicaDataList'];
      };
    };
    /** @description The list of topic configs. */
    ListTopicConfigsResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['TopicConfigDataList'];
      };
    };
    /** @description The list of topics. */
    ListTopicsResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['TopicDataList'];
      };
    };
    /** @description No acceptable representation for the `Accept` header (406). */
    NotAcceptable: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description Not found; `error_code` is 404 (unknown cluster, broker or config) or 40401/40402/40403/40404. */
    NotFound: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "error_code": 40401,
         *       "message": "Topic not found."
         *     }
         */
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description The request or a record is larger than the broker accepts (413). */
    PayloadTooLarge: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description A delivery report for each produced record and an error for each record that was not produced. */
    ProduceBatchResponse: {
      headers: {
        'Idempotent-Replayed': components['headers']['IdempotentReplayed'];
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "successes": [
         *         {
         *           "id": "1",
         *           "cluster_id": "brook-1",
         *           "topic_name": "orders",
         *           "partition_id": 0,
         *           "offset": 7,
         *           "timestamp": "2026-02-05T19:14:42.123Z",
         *           "value": {
         *             "type": "STRING",
         *             "size": 5
         *           }
         *         }
         *       ],
         *       "failures": [
         *         {
         *           "id": "2",
         *           "error_code": 400,
         *           "message": "Bad Request: data=1 is not a base64 string."
         *         }
         *       ]
         *     }
         */
        'application/json': components['schemas']['ProduceBatchResponse'];
      };
    };
    /** @description The delivery report of the record; in streaming mode, a stream of delivery reports, one per record, in order, each followed by CRLF. */
    ProduceResponse: {
      headers: {
        'Idempotent-Replayed': components['headers']['IdempotentReplayed'];
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "error_code": 200,
         *       "cluster_id": "brook-1",
         *       "topic_name": "orders",
         *       "partition_id": 1,
         *       "offset": 42,
         *       "timestamp": "2026-02-05T19:14:42.123Z",
         *       "key": {
         *         "type": "STRING",
         *         "size": 7
         *       },
         *       "value": {
         *         "type": "JSON",
         *         "size": 18
         *       }
         *     }
         */
        'application/json': components['schemas']['ProduceResponse'];
      };
    };
    /** @description 50003 retriable: not enough in-sync replicas for `acks=all` (nothing appended), a leader still learning its high watermark, or, with `Brook-Outcome: unknown`, a produce whose outcome is unknown; 50302 broker not available. */
    ProduceUnavailable: {
      headers: {
        'Brook-Outcome': components['headers']['BrookOutcome'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description The records read (possibly none), and where to read on. */
    ReadRecordsResponse: {
      headers: {
        /** @description The partition's high watermark. Sent with `application/vnd.brook.batches` answers. */
        'X-Brook-High-Watermark'?: number;
        /** @description The offset to read from next. Sent with `application/vnd.brook.batches` answers. */
        'X-Brook-Next-Offset'?: number;
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "records": [
         *         {
         *           "partition": 0,
         *           "offset": 41,
         *           "timestamp": 1770318882123,
         *           "key": "dXNlci00Mg==",
         *           "value": "eyJhY3Rpb24iOiJsb2dpbiJ9",
         *           "headers": [
         *             {
         *               "name": "trace-id",
         *               "value": "YWJjMTIz"
         *             }
         *           ]
         *         }
         *       ],
         *       "next_offset": 42,
         *       "high_watermark": 50
         *     }
         */
        'application/json': components['schemas']['ReadRecordsResponse'];
        'application/vnd.brook.batches': string;
      };
    };
    /** @description Malformed JSON or a body that is not a JSON object (400, 40002). */
    RegistryBadRequest: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/vnd.schemaregistry.v1+json': components['schemas']['Error'];
      };
    };
    /** @description Whether the schema is compatible; with `verbose=true`, why not. */
    RegistryCompatibilityResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/vnd.schemaregistry.v1+json': components['schemas']['RegistryCompatibilityCheck'];
      };
    };
    /** @description A compatibility level. */
    RegistryConfigResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "compatibilityLevel": "BACKWARD"
         *     }
         */
        'application/vnd.schemaregistry.v1+json': components['schemas']['RegistryConfig'];
      };
    };
    /** @description The level set, as the request gave it. */
    RegistryConfigUpdateResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/vnd.schemaregistry.v1+json': components['schemas']['RegistryConfigUpdate'];
      };
    };
    /** @description 409 the schema is incompatible with an earlier version of the subject (the details say why). */
    RegistryConflict: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/vnd.schemaregistry.v1+json': components['schemas']['Error'];
      };
    };
    /** @description The principal lacks the SUBJECT (or cluster) ACL this operation needs (40301). */
    RegistryForbidden: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/vnd.schemaregistry.v1+json': components['schemas']['Error'];
      };
    };
    /** @description Schema ids, ascending. */
    RegistryIdListResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/vnd.schemaregistry.v1+json': number[];
      };
    };
    /** @description A mode. */
    RegistryModeResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/vnd.schemaregistry.v1+json': components['schemas']['RegistryMode'];
      };
    };
    /** @description Not found: 40401 subject, 40402 version, 40403 schema, 40404 subject soft-deleted, 40405 subject not soft-deleted, 40406 version soft-deleted, 40407 version not soft-deleted, 40408 no subject-level compatibility, 40409 no subject-level mode. */
    RegistryNotFound: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "error_code": 40401,
         *       "message": "Subject 'orders-value' not found."
         *     }
         */
        'application/vnd.schemaregistry.v1+json': components['schemas']['Error'];
      };
    };
    /** @description The request is larger than the broker accepts (413). */
    RegistryPayloadTooLarge: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/vnd.schemaregistry.v1+json': components['schemas']['Error'];
      };
    };
    /** @description The schema text alone, as the body: a JSON document for Avro and JSON Schema, `.proto` text for Protobuf (as Confluent's registry answers, under its media type either way). */
    RegistrySchemaTextResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/vnd.schemaregistry.v1+json': unknown;
      };
    };
    /** @description Server-side failure: 50001 a stored schema that does not parse, 50002 an operation that timed out, 500. */
    RegistryServerError: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/vnd.schemaregistry.v1+json': components['schemas']['Error'];
      };
    };
    /** @description 50003: the write could not reach the broker leading `_schemas` (a leadership change, too few brokers to create it yet); retry. */
    RegistryServiceUnavailable: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/vnd.schemaregistry.v1+json': components['schemas']['Error'];
      };
    };
    /** @description A version of a subject, with its schema. */
    RegistrySubjectVersionResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "subject": "orders-value",
         *       "version": 1,
         *       "id": 1,
         *       "schema": "{\"type\":\"record\",\"name\":\"Order\",\"fields\":[{\"name\":\"id\",\"type\":\"string\"}]}"
         *     }
         */
        'application/vnd.schemaregistry.v1+json': components['schemas']['RegistrySubjectVersion'];
      };
    };
    /** @description Rate limited (42901); retry after `Retry-After` seconds. */
    RegistryTooManyRequests: {
      headers: {
        'Retry-After': components['headers']['RetryAfter'];
        [name: string]: unknown;
      };
      content: {
        'application/vnd.schemaregistry.v1+json': components['schemas']['Error'];
      };
    };
    /** @description Missing or invalid credentials (40101), when the broker requires authentication (`BROOK_AUTH`). */
    RegistryUnauthorized: {
      headers: {
        'WWW-Authenticate'?: string;
        [name: string]: unknown;
      };
      content: {
        'application/vnd.schemaregistry.v1+json': components['schemas']['Error'];
      };
    };
    /** @description The request is well-formed but refused: 42201 invalid schema, 42202 invalid version, 42203 invalid compatibility level, 42204 invalid mode, 42205 operation not permitted, 42206 reference exists, 42207 id does not match, 42208 invalid subject, 42209 schema too large. */
    RegistryUnprocessableEntity: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/vnd.schemaregistry.v1+json': components['schemas']['Error'];
      };
    };
    /** @description The request `Content-Type` is not supported (415). */
    RegistryUnsupportedMediaType: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/vnd.schemaregistry.v1+json': components['schemas']['Error'];
      };
    };
    /** @description Version numbers, oldest first. */
    RegistryVersionListResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/vnd.schemaregistry.v1+json': number[];
      };
    };
    /** @description The new offset of each chosen partition; stored unless `dry_run`. */
    ResetConsumerGroupOffsetsResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "kind": "BrookConsumerGroupOffsetReset",
         *       "metadata": {
         *         "self": "http://localhost:8082/v3/clusters/brook-1/consumer-groups/orders-processor/offsets:reset"
         *       },
         *       "consumer_group_id": "orders-processor",
         *       "dry_run": false,
         *       "data": [
         *         {
         *           "topic_name": "orders",
         *           "partition_id": 0,
         *           "current_offset": 120,
         *           "new_offset": 87
         *         },
         *         {
         *           "topic_name": "orders",
         *           "partition_id": 1,
         *           "current_offset": -1,
         *           "new_offset": 64
         *         }
         *       ]
         *     }
         */
        'application/json': components['schemas']['ResetConsumerGroupOffsetsData'];
      };
    };
    /** @description The replicas the broker holds. */
    SearchReplicasByBrokerResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ReplicaDataList'];
      };
    };
    /** @description Server-side failure; `error_code` is 500, 50002 (Kafka error) or 50003 (retriable). */
    ServerError: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description Broker not available (50302); retry later. */
    ServiceUnavailable: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description Rate limited (42901); retry after `Retry-After` seconds. */
    TooManyRequests: {
      headers: {
        'Retry-After': components['headers']['RetryAfter'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description Missing or invalid credentials (40101), when the broker requires authentication (`BROOK_AUTH`). The `WWW-Authenticate` header lists the accepted schemes (Basic, Bearer). */
    Unauthorized: {
      headers: {
        'WWW-Authenticate'?: string;
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "error_code": 40101,
         *       "message": "Authentication is required."
         *     }
         */
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description The request is well-formed but invalid; `error_code` is 422 or a 422xx code. */
    UnprocessableEntity: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description The request `Content-Type` is not supported (415). */
    UnsupportedMediaType: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description The partitions assigned to the instance. */
    V2AssignmentsResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['V2TopicPartitionList'];
        /**
         * @example {
         *       "partitions": [
         *         {
         *           "topic": "orders",
         *           "partition": 0
         *         }
         *       ]
         *     }
         */
        'application/vnd.kafka.v2+json': components['schemas']['V2TopicPartitionList'];
      };
    };
    /** @description Bad request; `error_code` is 400 or a five-digit code such as 40002. */
    V2BadRequest: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
        'application/vnd.kafka.v2+json': components['schemas']['Error'];
      };
    };
    /** @description What was committed, as Confluent's proxy answers it: for each partition, the offset of the last record consumed (`consumed`) and the offset stored, the next one the group reads (`committed`). */
    V2CommitOffsetsResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['V2CommittedPositions'];
        /**
         * @example [
         *       {
         *         "topic": "orders",
         *         "partition": 0,
         *         "consumed": 41,
         *         "committed": 42
         *       }
         *     ]
         */
        'application/vnd.kafka.v2+json': components['schemas']['V2CommittedPositions'];
      };
    };
    /** @description The committed offsets of the requested partitions that have one. */
    V2CommittedOffsetsResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['V2CommittedOffsets'];
        /**
         * @example {
         *       "offsets": [
         *         {
         *           "topic": "orders",
         *           "partition": 0,
         *           "offset": 42,
         *           "metadata": ""
         *         }
         *       ]
         *     }
         */
        'application/vnd.kafka.v2+json': components['schemas']['V2CommittedOffsets'];
      };
    };
    /** @description Conflict; `error_code` is 40901 (subscription conflict), 40902 (consumer instance exists), 40903 (commit fenced, or a seek on a partition the instance is not assigned), 40906 (an `Idempotency-Key` whose first request is still in flight) or 40907 (the group is in use by Kafka clients). */
    V2Conflict: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
        /**
         * @example {
         *       "error_code": 40902,
         *       "message": "Consumer instance with the specified name consumer-1 already exists in group orders-processor."
         *     }
         */
        'application/vnd.kafka.v2+json': components['schemas']['Error'];
      };
    };
    /** @description The records fetched (possibly none), in the instance's embedded format. */
    V2ConsumeRecordsResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/vnd.kafka.avro.v2+json': components['schemas']['V2JsonConsumerRecord'][];
        /**
         * @example [
         *       {
         *         "topic": "orders",
         *         "partition": 0,
         *         "offset": 41,
         *         "timestamp": 1770318882123,
         *         "key": "dXNlci00Mg==",
         *         "value": "eyJhY3Rpb24iOiJsb2dpbiJ9",
         *         "headers": [
         *           {
         *             "name": "trace-id",
         *             "value": "YWJjMTIz"
         *           }
         *         ]
         *       }
         *     ]
         */
        'application/vnd.kafka.binary.v2+json': components['schemas']['V2BinaryConsumerRecord'][];
        /**
         * @example [
         *       {
         *         "topic": "orders",
         *         "partition": 0,
         *         "offset": 41,
         *         "timestamp": 1770318882123,
         *         "key": "user-42",
         *         "value": {
         *           "action": "login"
         *         },
         *         "headers": []
         *       }
         *     ]
         */
        'application/vnd.kafka.json.v2+json': components['schemas']['V2JsonConsumerRecord'][];
        'application/vnd.kafka.jsonschema.v2+json': components['schemas']['V2JsonConsumerRecord'][];
        'application/vnd.kafka.protobuf.v2+json': components['schemas']['V2JsonConsumerRecord'][];
      };
    };
    /** @description The new consumer instance. */
    V2CreateConsumerResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['V2ConsumerInstance'];
        /**
         * @example {
         *       "instance_id": "consumer-1",
         *       "base_uri": "http://localhost:8082/consumers/orders-processor/instances/consumer-1"
         *     }
         */
        'application/vnd.kafka.v2+json': components['schemas']['V2ConsumerInstance'];
      };
    };
    /** @description The partition. */
    V2GetPartitionResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['V2Partition'];
        'application/vnd.kafka.binary.v2+json': components['schemas']['V2Partition'];
        'application/vnd.kafka.json.v2+json': components['schemas']['V2Partition'];
        'application/vnd.kafka.v2+json': components['schemas']['V2Partition'];
      };
    };
    /** @description The topic. */
    V2GetTopicResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['V2Topic'];
        'application/vnd.kafka.binary.v2+json': components['schemas']['V2Topic'];
        'application/vnd.kafka.json.v2+json': components['schemas']['V2Topic'];
        /**
         * @example {
         *       "name": "orders",
         *       "configs": {
         *         "cleanup.policy": "delete"
         *       },
         *       "partitions": [
         *         {
         *           "partition": 0,
         *           "leader": 1,
         *           "replicas": [
         *             {
         *               "broker": 1,
         *               "leader": true,
         *               "in_sync": true
         *             },
         *             {
         *               "broker": 2,
         *               "leader": false,
         *               "in_sync": true
         *             }
         *           ]
         *         }
         *       ]
         *     }
         */
        'application/vnd.kafka.v2+json': components['schemas']['V2Topic'];
      };
    };
    /** @description The ids of the live brokers. */
    V2ListBrokersResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['V2BrokerList'];
        'application/vnd.kafka.binary.v2+json': components['schemas']['V2BrokerList'];
        'application/vnd.kafka.json.v2+json': components['schemas']['V2BrokerList'];
        /**
         * @example {
         *       "brokers": [
         *         1,
         *         2,
         *         3
         *       ]
         *     }
         */
        'application/vnd.kafka.v2+json': components['schemas']['V2BrokerList'];
      };
    };
    /** @description The partitions of the topic. */
    V2ListPartitionsResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['V2PartitionList'];
        'application/vnd.kafka.binary.v2+json': components['schemas']['V2PartitionList'];
        'application/vnd.kafka.json.v2+json': components['schemas']['V2PartitionList'];
        'application/vnd.kafka.v2+json': components['schemas']['V2PartitionList'];
      };
    };
    /** @description The names of all topics. */
    V2ListTopicsResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['V2TopicNameList'];
        'application/vnd.kafka.binary.v2+json': components['schemas']['V2TopicNameList'];
        'application/vnd.kafka.json.v2+json': components['schemas']['V2TopicNameList'];
        /**
         * @example [
         *       "orders",
         *       "payments"
         *     ]
         */
        'application/vnd.kafka.v2+json': components['schemas']['V2TopicNameList'];
      };
    };
    /** @description No acceptable representation for the `Accept` header (406); 40601 for a consumer instance's other embedded format. */
    V2NotAcceptable: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
        'application/vnd.kafka.v2+json': components['schemas']['Error'];
      };
    };
    /** @description Not found; `error_code` is 40401 (topic), 40402 (partition), 40403 (consumer instance) or 40404 (leader not available). */
    V2NotFound: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
        /**
         * @example {
         *       "error_code": 40401,
         *       "message": "Topic not found."
         *     }
         */
        'application/vnd.kafka.v2+json': components['schemas']['Error'];
      };
    };
    /** @description The first and the next offset of the partition. */
    V2PartitionOffsetsResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['V2PartitionOffsets'];
        'application/vnd.kafka.binary.v2+json': components['schemas']['V2PartitionOffsets'];
        'application/vnd.kafka.json.v2+json': components['schemas']['V2PartitionOffsets'];
        /**
         * @example {
         *       "beginning_offset": 10,
         *       "end_offset": 50
         *     }
         */
        'application/vnd.kafka.v2+json': components['schemas']['V2PartitionOffsets'];
      };
    };
    /** @description The request or a record is larger than the broker accepts (413). */
    V2PayloadTooLarge: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
        'application/vnd.kafka.v2+json': components['schemas']['Error'];
      };
    };
    /** @description One entry per record, in request order; failed records carry `error_code` and `error`. */
    V2ProduceResponse: {
      headers: {
        'Idempotent-Replayed': components['headers']['IdempotentReplayed'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['V2ProduceResponse'];
        'application/vnd.kafka.avro.v2+json': components['schemas']['V2ProduceResponse'];
        'application/vnd.kafka.binary.v2+json': components['schemas']['V2ProduceResponse'];
        'application/vnd.kafka.json.v2+json': components['schemas']['V2ProduceResponse'];
        'application/vnd.kafka.jsonschema.v2+json': components['schemas']['V2ProduceResponse'];
        'application/vnd.kafka.protobuf.v2+json': components['schemas']['V2ProduceResponse'];
        /**
         * @example {
         *       "offsets": [
         *         {
         *           "partition": 2,
         *           "offset": 100,
         *           "error_code": null,
         *           "error": null
         *         },
         *         {
         *           "partition": null,
         *           "offset": null,
         *           "error_code": 50003,
         *           "error": "Retriable Kafka error: not enough replicas"
         *         }
         *       ],
         *       "key_schema_id": null,
         *       "value_schema_id": null
         *     }
         */
        'application/vnd.kafka.v2+json': components['schemas']['V2ProduceResponse'];
      };
    };
    /** @description Server-side failure; `error_code` is 500, 50002 (Kafka error) or 50003 (retriable). */
    V2ServerError: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
        'application/vnd.kafka.v2+json': components['schemas']['Error'];
      };
    };
    /** @description Broker not available (50302); retry later. */
    V2ServiceUnavailable: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
        'application/vnd.kafka.v2+json': components['schemas']['Error'];
      };
    };
    /** @description The subscribed topics. */
    V2SubscriptionResponse: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['V2TopicSubscription'];
        /**
         * @example {
         *       "topics": [
         *         "orders",
         *         "payments"
         *       ]
         *     }
         */
        'application/vnd.kafka.v2+json': components['schemas']['V2TopicSubscription'];
      };
    };
    /** @description Rate limited (42901); retry after `Retry-After` seconds. */
    V2TooManyRequests: {
      headers: {
        'Retry-After': components['headers']['RetryAfter'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
        'application/vnd.kafka.v2+json': components['schemas']['Error'];
      };
    };
    /** @description The request is well-formed but invalid; `error_code` is 422 or a 422xx code. */
    V2UnprocessableEntity: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
        'application/vnd.kafka.v2+json': components['schemas']['Error'];
      };
    };
    /** @description The request `Content-Type` is not supported (415). */
    V2UnsupportedMediaType: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
        'application/vnd.kafka.v2+json': components['schemas']['Error'];
      };
    };
  };
  parameters: {
    /** @description When to acknowledge: `0` without waiting for the write (the reported offset is then -1, as Kafka's producer reports it), `1` once the leader has written the records, `all` once every in-sync replica has them. */
    Acks: '0' | '1' | 'all';
    /** @description The host, * for every host. */
    AclHost: string;
    /** @description The operation. */
    AclOperation:
      | 'ALL'
      | 'READ'
      | 'WRITE'
      | 'CREATE'
      | 'DELETE'
      | 'ALTER'
      | 'DESCRIBE'
      | 'DESCRIBE_CONFIGS'
      | 'ALTER_CONFIGS'
      | 'ANY';
    /** @description The pattern type. */
    AclPatternType: 'LITERAL' | 'PREFIXED' | 'ANY' | 'MATCH';
    /** @description The permission. */
    AclPermission: 'ALLOW' | 'DENY' | 'ANY';
    /** @description The principal, such as User:alice. */
    AclPrincipal: string;
    /** @description The resource name (exact, or the resource to match with pattern_type MATCH). */
    AclResourceName: string;
    /** @description The resource type (ANY for all). */
    AclResourceType: 'TOPIC' | 'GROUP' | 'CLUSTER' | 'SUBJECT' | 'ANY';
    /** @description The broker id. */
    BrokerId: number;
    /** @description The producer epoch that came with `Brook-Producer-Id`. */
    BrookProducerEpoch: number;
    /** @description An idempotent producer's id, from `POST /v3/clusters/{cluster_id}/producers`. With `Brook-Producer-Epoch` and `Brook-Producer-Sequence` (all three or none), the partition leader dedupes retries: a request whose records it already appended (one of the producer's last five batches in that partition) is answered with the original offsets and appends nothing, through restarts and leader changes. Record *i* of the request (in streaming mode, record *i* of the stream, from 0) has sequence `Brook-Producer-Sequence + i`. Every record must name its partition (the route's, or `partition_id`/`partition`) or have a key, else 42206. When all records go to one named partition, Kafka's rule holds: the next request to that partition starts at the next sequence, any other is 40908. Records spread over partitions by key may leave gaps in each partition's sequence, which must still only move forward. An older epoch than the partition's is 40909 (fenced); a new epoch starts at sequence 0. A producer silent for `BROOK_PRODUCER_ID_EXPIRATION_MS` (default 24 h), or whose last batch retention deleted, is forgotten and may start again at any sequence. */
    BrookProducerId: number;
    /** @description The sequence of the request's first record (see `Brook-Producer-Id`). */
    BrookProducerSequence: number;
    /** @description The cluster id. */
    ClusterId: string;
    /**
     * @description A partition whose committed offset to return, as `topic:partition` (repeat the parameter for several). When given, any request body is ignored.
     * @example [
     *       "orders:0",
     *       "orders:1"
     *     ]
     */
    CommittedPartition: string[];
    /** @description The config name, such as `retention.ms`. */
    ConfigName: string;
    /**
     * @description The consumer group id.
     * @example orders-processor
     */
    ConsumerGroupId: string;
    /** @description The consumer (group member) id. */
    ConsumerId: string;
    /** @description How long to wait for records, in milliseconds (bounded by the broker's maximum wait); defaults to the instance's `consumer.request.timeout.ms`. */
    ConsumeTimeout: number;
    /**
     * @description The consumer group name (1 to 255 characters).
     * @example orders-processor
     */
    GroupName: string;
    /** @description Makes a produce request safe to retry: a retry with the same key, by the same principal, to the same topic, within `BROOK_IDEMPOTENCY_RETENTION_MS` (default 24 h) is answered with the original status and body, rebuilt from the outcome the partition leaders kept (offsets, timestamps), with `Idempotent-Replayed: true`, and appends nothing, through whichever broker of the cluster it comes, after restarts and leader failover. The same key with another body is 422 (42291); a key whose first request is not answered yet, or whose records the in-sync replicas do not all hold yet, is 409 (40906): retry later. Only final outcomes are kept: records of a partition that failed (40404, 50003, an unknown outcome) are appended by the retry, and the partitions that did append answer their original offsets (no `Idempotent-Replayed` then, since the retry appended something). Records without a key or partition go to the partition the key names. In streaming mode each record of the stream is keyed by its position (from 0); the head carries no `Idempotent-Replayed` (it is written before the records are read): a replayed record's delivery report carries `replayed: true` instead. Not with the `Brook-Producer-*` headers (400). Each partition remembers at most `BROOK_PRODUCER_IDS_PER_PARTITION_MAX` keys and producer ids; beyond that the least recently used is forgotten. Every request with a key writes its key's home partition (where its keyless records go) first, with a marker there (an empty batch: one offset, no record) when none of its records go there, so another body is refused before anything is appended, whatever partitions its records go to; adding partitions to the topic moves the home partition. */
    IdempotencyKey: string;
    /** @description Brook's addition: `true` also lists internal topics (`__consumer_offsets`), which are hidden by default; `brook topics --list` asks for them, as `kafka-topics.sh --list` shows them. */
    IncludeInternal: 'true' | 'false';
    /**
     * @description The consumer instance id, as returned by `instance_id` on creation.
     * @example consumer-1
     */
    InstanceName: string;
    /** @description Upper bound on the size of the answer in bytes (at least one record is returned if any exists). */
    MaxBytes: number;
    /** @description Upper bound on the number of records returned. */
    MaxRecords: number;
    /** @description Which offsets to return; only `earliest_and_latest` is defined (as in Confluent's spec). */
    OffsetType: 'earliest_and_latest';
    /** @description The partition id. */
    PartitionId: number;
    /** @description Read from the log start (`earliest`) or from the high watermark (`latest`, new records only). */
    ReadFrom: 'earliest' | 'latest';
    /** @description Read from this offset. */
    ReadOffset: number;
    /** @description Read from the first record whose timestamp is at or after this time, given as epoch milliseconds or as an RFC 3339 date-time. */
    ReadTimestamp: string;
    /** @description How keys and values are encoded in the JSON answer: `binary` as base64 strings, `json` as JSON values (the bytes parsed as JSON), `string` as UTF-8 strings; `avro`, `jsonschema` and `protobuf` decode keys and values stored in Confluent's wire format with the registry's schemas (Avro's JSON encoding, the JSON document, proto3 JSON), each record then carrying `key_schema_id` and `value_schema_id`, and `key_error` / `value_error` for a key or value that cannot be decoded (not in the wire format, schema not found, of another type or not matching). A null key or value stays null. */
    RecordFormat: 'binary' | 'json' | 'string' | 'avro' | 'jsonschema' | 'protobuf';
    /** @description Answer the global setting when the subject has none of its own. */
    RegistryDefaultToGlobal: boolean;
    /** @description Include soft-deleted subjects and versions. */
    RegistryDeleted: boolean;
    /** @description Switch to IMPORT even though schemas exist. */
    RegistryForce: boolean;
    /** @description Compare (and store) schemas in their normalized form, as Confluent's registry does. */
    RegistryNormalize: boolean;
    /** @description Delete for good (what was soft-deleted first). */
    RegistryPermanent: boolean;
    /** @description The schema's global id. */
    RegistrySchemaId: number;
    /** @description The subject (by Confluent's default strategy `<topic>-key` or `<topic>-value`). */
    RegistrySubject: string;
    /** @description Say why a schema is not compatible (`messages`). */
    RegistryVerbose: boolean;
    /** @description A version from 1 to 2^31-1, or `latest` (also -1). */
    RegistryVersion: string;
    /** @description The topic name. */
    TopicName: string;
    /** @description How long to wait for records when there are none yet (long poll), in milliseconds. */
    WaitMs: number;
  };
  requestBodies: {
    AlterBrokerConfigBatchRequest: {
      content: {
        /**
         * @example {
         *       "data": [
         *         {
         *           "name": "message.max.bytes",
         *           "value": "2097152"
         *         }
         *       ]
         *     }
         */
        'application/json': components['schemas']['AlterConfigBatchRequestData'];
      };
    };
    AlterClusterConfigBatchRequest: {
      content: {
        /**
         * @example {
         *       "data": [
         *         {
         *           "name": "num.partitions",
         *           "value": "3"
         *         },
         *         {
         *           "name": "log.retention.ms",
         *           "operation": "DELETE"
         *         }
         *       ]
         *     }
         */
        'application/json': components['schemas']['AlterConfigBatchRequestData'];
      };
    };
    AlterPartitionReassignmentsRequest: {
      content: {
        /**
         * @example {
         *       "partitions": [
         *         {
         *           "topic_name": "orders",
         *           "partition_id": 0,
         *           "replicas": [
         *             2,
         *             3,
         *             4
         *           ]
         *         },
         *         {
         *           "topic_name": "orders",
         *           "partition_id": 1,
         *           "replicas": null
         *         }
         *       ]
         *     }
         */
        'application/json': components['schemas']['AlterPartitionReassignmentsRequestData'];
      };
    };
    AlterTopicConfigBatchRequest: {
      content: {
        /**
         * @example {
         *       "data": [
         *         {
         *           "name": "cleanup.policy",
         *           "operation": "DELETE"
         *         },
         *         {
         *           "name": "retention.ms",
         *           "value": "86400000"
         *         }
         *       ]
         *     }
         */
        'application/json': components['schemas']['AlterConfigBatchRequestData'];
      };
    };
    CreateTopicRequest: {
      content: {
        /**
         * @example {
         *       "topic_name": "orders",
         *       "partitions_count": 6,
         *       "replication_factor": 3,
         *       "configs": [
         *         {
         *           "name": "cleanup.policy",
         *           "value": "compact"
         *         }
         *       ]
         *     }
         */
        'application/json': components['schemas']['CreateTopicRequestData'];
      };
    };
    ElectLeadersRequest: {
      content: {
        /**
         * @example {
         *       "election_type": "PREFERRED",
         *       "partitions": [
         *         {
         *           "topic_name": "orders",
         *           "partition_id": 0
         *         }
         *       ]
         *     }
         */
        'application/json': components['schemas']['ElectLeadersRequestData'];
      };
    };
    ProduceBatchRequest: {
      content: {
        /**
         * @example {
         *       "entries": [
         *         {
         *           "id": "1",
         *           "value": {
         *             "type": "STRING",
         *             "data": "first"
         *           }
         *         },
         *         {
         *           "id": "2",
         *           "value": {
         *             "type": "STRING",
         *             "data": "second"
         *           }
         *         }
         *       ]
         *     }
         */
        'application/json': components['schemas']['ProduceBatchRequest'];
      };
    };
    /** @description One record; in streaming mode, a stream of concatenated records. */
    ProduceRequest: {
      content: {
        /**
         * @example {
         *       "partition_id": 1,
         *       "headers": [
         *         {
         *           "name": "trace-id",
         *           "value": "YWJjMTIz"
         *         }
         *       ],
         *       "key": {
         *         "type": "STRING",
         *         "data": "user-42"
         *       },
         *       "value": {
         *         "type": "JSON",
         *         "data": {
         *           "action": "login"
         *         }
         *       },
         *       "timestamp": "2026-02-05T19:14:42Z"
         *     }
         */
        'application/json': components['schemas']['ProduceRequest'];
      };
    };
    RegistryConfigRequest: {
      content: {
        'application/json': components['schemas']['RegistryConfigUpdate'];
        /**
         * @example {
         *       "compatibility": "FULL"
         *     }
         */
        'application/vnd.schemaregistry.v1+json': components['schemas']['RegistryConfigUpdate'];
        'application/vnd.schemaregistry+json': components['schemas']['RegistryConfigUpdate'];
      };
    };
    RegistryModeRequest: {
      content: {
        'application/json': components['schemas']['RegistryMode'];
        /**
         * @example {
         *       "mode": "READONLY"
         *     }
         */
        'application/vnd.schemaregistry.v1+json': components['schemas']['RegistryMode'];
        'application/vnd.schemaregistry+json': components['schemas']['RegistryMode'];
      };
    };
    RegistrySchemaRequest: {
      content: {
        'application/json': components['schemas']['RegistrySchemaRequest'];
        /**
         * @example {
         *       "schema": "{\"type\":\"record\",\"name\":\"User\",\"fields\":[{\"name\":\"name\",\"type\":\"string\"}]}"
         *     }
         */
        'application/vnd.schemaregistry.v1+json': components['schemas']['RegistrySchemaRequest'];
        'application/vnd.schemaregistry+json': components['schemas']['RegistrySchemaRequest'];
      };
    };
    ResetConsumerGroupOffsetsRequest: {
      content: {
        /**
         * @example {
         *       "to": "timestamp",
         *       "timestamp": "2026-02-05T00:00:00Z",
         *       "topics": [
         *         {
         *           "topic_name": "orders",
         *           "partitions": [
         *             0,
         *             1
         *           ]
         *         }
         *       ],
         *       "dry_run": false
         *     }
         */
        'application/json': components['schemas']['ResetConsumerGroupOffsetsRequestData'];
      };
    };
    UpdateBrokerConfigRequest: {
      content: {
        /**
         * @example {
         *       "value": "604800000"
         *     }
         */
        'application/json': components['schemas']['UpdateConfigRequestData'];
      };
    };
    UpdateClusterConfigRequest: {
      content: {
        /**
         * @example {
         *       "value": "3"
         *     }
         */
        'application/json': components['schemas']['UpdateConfigRequestData'];
      };
    };
    UpdatePartitionCountRequest: {
      content: {
        /**
         * @example {
         *       "partitions_count": 12
         *     }
         */
        'application/json': components['schemas']['UpdatePartitionCountRequestData'];
      };
    };
    UpdateTopicConfigRequest: {
      content: {
        /**
         * @example {
         *       "value": "604800000"
         *     }
         */
        'application/json': components['schemas']['UpdateConfigRequestData'];
      };
    };
    /** @description The offsets to commit; an empty or absent body commits what was returned to the client. */
    V2CommitOffsetsRequest: {
      content: {
        'application/json': components['schemas']['V2CommitOffsets'];
        /**
         * @example {
         *       "offsets": [
         *         {
         *           "topic": "orders",
         *           "partition": 0,
         *           "offset": 41,
         *           "metadata": "processed by worker 3"
         *         }
         *       ]
         *     }
         */
        'application/vnd.kafka.v2+json': components['schemas']['V2CommitOffsets'];
      };
    };
    /** @description The instance's configuration; every field is optional (an empty or absent body takes the defaults). */
    V2CreateConsumerRequest: {
      content: {
        'application/json': components['schemas']['V2CreateConsumerRequest'];
        /**
         * @example {
         *       "name": "consumer-1",
         *       "format": "json",
         *       "auto.offset.reset": "earliest",
         *       "auto.commit.enable": "false"
         *     }
         */
        'application/vnd.kafka.v2+json': components['schemas']['V2CreateConsumerRequest'];
      };
    };
    V2PartitionsRequest: {
      content: {
        'application/json': components['schemas']['V2TopicPartitionList'];
        /**
         * @example {
         *       "partitions": [
         *         {
         *           "topic": "orders",
         *           "partition": 0
         *         },
         *         {
         *           "topic": "orders",
         *           "partition": 1
         *         }
         *       ]
         *     }
         */
        'application/vnd.kafka.v2+json': components['schemas']['V2TopicPartitionList'];
      };
    };
    V2ProduceRequest: {
      content: {
        'application/json': components['schemas']['V2BinaryProduceRequest'];
        /**
         * @example {
         *       "value_schema": "{\"type\":\"record\",\"name\":\"User\",\"fields\":[{\"name\":\"name\",\"type\":\"string\"}]}",
         *       "records": [
         *         {
         *           "value": {
         *             "name": "ada"
         *           }
         *         }
         *       ]
         *     }
         */
        'application/vnd.kafka.avro.v2+json': components['schemas']['V2SchemaProduceRequest'];
        /**
         * @example {
         *       "records": [
         *         {
         *           "key": "a2V5",
         *           "value": "Y29uZmx1ZW50"
         *         },
         *         {
         *           "value": "a2Fma2E=",
         *           "partition": 1
         *         }
         *       ]
         *     }
         */
        'application/vnd.kafka.binary.v2+json': components['schemas']['V2BinaryProduceRequest'];
        /**
         * @example {
         *       "records": [
         *         {
         *           "key": "somekey",
         *           "value": {
         *             "foo": "bar"
         *           }
         *         },
         *         {
         *           "value": 53.5
         *         }
         *       ]
         *     }
         */
        'application/vnd.kafka.json.v2+json': components['schemas']['V2JsonProduceRequest'];
        'application/vnd.kafka.jsonschema.v2+json': components['schemas']['V2SchemaProduceRequest'];
        'application/vnd.kafka.protobuf.v2+json': components['schemas']['V2SchemaProduceRequest'];
        'application/vnd.kafka.v2+json': components['schemas']['V2BinaryProduceRequest'];
      };
    };
    V2SeekRequest: {
      content: {
        'application/json': components['schemas']['V2SeekOffsets'];
        /**
         * @example {
         *       "offsets": [
         *         {
         *           "topic": "orders",
         *           "partition": 0,
         *           "offset": 20
         *         }
         *       ]
         *     }
         */
        'application/vnd.kafka.v2+json': components['schemas']['V2SeekOffsets'];
      };
    };
    V2SubscriptionRequest: {
      content: {
        'application/json': components['schemas']['V2SubscriptionRequest'];
        'application/vnd.kafka.v2+json': components['schemas']['V2SubscriptionRequest'];
      };
    };
  };
  headers: {
    /** @description `unknown` on a produce failure whose records may or may not have been appended and committed (see "Unknown outcomes" above); absent on a failure that appended nothing. */
    BrookOutcome: 'unknown';
    /** @description `true` when the answer was rebuilt from the kept outcome of an earlier request with the same `Idempotency-Key` and this request appended nothing; absent otherwise. */
    IdempotentReplayed: 'true';
    /** @description Seconds to wait before retrying. */
    RetryAfter: number;
  };
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  v2ListBrokers: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['V2ListBrokersResponse'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      406: components['responses']['V2NotAcceptable'];
      429: components['responses']['V2TooManyRequests'];
      500: components['responses']['V2ServerError'];
      503: components['responses']['V2ServiceUnavailable'];
    };
  };
  registryTestCompatibilityWithAll: {
    parameters: {
      query?: {
        /** @description Say why a schema is not compatible (`messages`). */
        verbose?: components['parameters']['RegistryVerbose'];
      };
      header?: never;
      path: {
        /** @description The subject (by Confluent's default strategy `<topic>-key` or `<topic>-value`). */
        subject: components['parameters']['RegistrySubject'];
      };
      cookie?: never;
    };
    requestBody: components['requestBodies']['RegistrySchemaRequest'];
    responses: {
      200: components['responses']['RegistryCompatibilityResponse'];
      400: components['responses']['RegistryBadRequest'];
      401: components['responses']['RegistryUnauthorized'];
      403: components['responses']['RegistryForbidden'];
      413: components['responses']['RegistryPayloadTooLarge'];
      415: components['responses']['RegistryUnsupportedMediaType'];
      /** @description 42201 invalid schema (with `verbose=true`, an answer that says why instead). */
      422: components['responses']['RegistryUnprocessableEntity'];
      429: components['responses']['RegistryTooManyRequests'];
      500: components['responses']['RegistryServerError'];
    };
  };
  registryTestCompatibility: {
    parameters: {
      query?: {
        /** @description Say why a schema is not compatible (`messages`). */
        verbose?: components['parameters']['RegistryVerbose'];
      };
      header?: never;
      path: {
        /** @description The subject (by Confluent's default strategy `<topic>-key` or `<topic>-value`). */
        subject: components['parameters']['RegistrySubject'];
        /** @description A version from 1 to 2^31-1, or `latest` (also -1). */
        version: components['parameters']['RegistryVersion'];
      };
      cookie?: never;
    };
    requestBody: components['requestBodies']['RegistrySchemaRequest'];
    responses: {
      200: components['responses']['RegistryCompatibilityResponse'];
      400: components['responses']['RegistryBadRequest'];
      401: components['responses']['RegistryUnauthorized'];
      403: components['responses']['RegistryForbidden'];
      /** @description 40402 version not found. */
      404: components['responses']['RegistryNotFound'];
      413: components['responses']['RegistryPayloadTooLarge'];
      415: components['responses']['RegistryUnsupportedMediaType'];
      /** @description 42201 invalid schema (with `verbose=true`, an answer that says why instead); 42202 invalid version. */
      422: components['responses']['RegistryUnprocessableEntity'];
      429: components['responses']['RegistryTooManyRequests'];
      500: components['responses']['RegistryServerError'];
    };
  };
  registryGetGlobalConfig: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['RegistryConfigResponse'];
      401: components['responses']['RegistryUnauthorized'];
      403: components['responses']['RegistryForbidden'];
      429: components['responses']['RegistryTooManyRequests'];
      500: components['responses']['RegistryServerError'];
    };
  };
  registrySetGlobalConfig: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: components['requestBodies']['RegistryConfigRequest'];
    responses: {
      200: components['responses']['RegistryConfigUpdateResponse'];
      400: components['responses']['RegistryBadRequest'];
      401: components['responses']['RegistryUnauthorized'];
      403: components['responses']['RegistryForbidden'];
      415: components['responses']['RegistryUnsupportedMediaType'];
      /** @description 42203 invalid compatibility level. */
      422: components['responses']['RegistryUnprocessableEntity'];
      429: components['responses']['RegistryTooManyRequests'];
      500: components['responses']['RegistryServerError'];
      503: components['responses']['RegistryServiceUnavailable'];
    };
  };
  registryDeleteGlobalConfig: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['RegistryConfigResponse'];
      401: components['responses']['RegistryUnauthorized'];
      403: components['responses']['RegistryForbidden'];
      429: components['responses']['RegistryTooManyRequests'];
      500: components['responses']['RegistryServerError'];
      503: components['responses']['RegistryServiceUnavailable'];
    };
  };
  registryGetSubjectConfig: {
    parameters: {
      query?: {
        /** @description Answer the global setting when the subject has none of its own. */
        defaultToGlobal?: components['parameters']['RegistryDefaultToGlobal'];
      };
      header?: never;
      path: {
        /** @description The subject (by Confluent's default strategy `<topic>-key` or `<topic>-value`). */
        subject: components['parameters']['RegistrySubject'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['RegistryConfigResponse'];
      401: components['responses']['RegistryUnauthorized'];
      403: components['responses']['RegistryForbidden'];
      /** @description 40408 the subject has no level of its own (without `defaultToGlobal=true`). */
      404: components['responses']['RegistryNotFound'];
      429: components['responses']['RegistryTooManyRequests'];
      500: components['responses']['RegistryServerError'];
    };
  };
  registrySetSubjectConfig: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The subject (by Confluent's default strategy `<topic>-key` or `<topic>-value`). */
        subject: components['parameters']['RegistrySubject'];
      };
      cookie?: never;
    };
    requestBody: components['requestBodies']['RegistryConfigRequest'];
    responses: {
      200: components['responses']['RegistryConfigUpdateResponse'];
      400: components['responses']['RegistryBadRequest'];
      401: components['responses']['RegistryUnauthorized'];
      403: components['responses']['RegistryForbidden'];
      415: components['responses']['RegistryUnsupportedMediaType'];
      /** @description 42203 invalid compatibility level; 42208 invalid subject. */
      422: components['responses']['RegistryUnprocessableEntity'];
      429: components['responses']['RegistryTooManyRequests'];
      500: components['responses']['RegistryServerError'];
      503: components['responses']['RegistryServiceUnavailable'];
    };
  };
  registryDeleteSubjectConfig: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The subject (by Confluent's default strategy `<topic>-key` or `<topic>-value`). */
        subject: components['parameters']['RegistrySubject'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['RegistryConfigResponse'];
      401: components['responses']['RegistryUnauthorized'];
      403: components['responses']['RegistryForbidden'];
      /** @description 40401 subject not found; 40408 the subject has no level of its own. */
      404: components['responses']['RegistryNotFound'];
      429: components['responses']['RegistryTooManyRequests'];
      500: components['responses']['RegistryServerError'];
      503: components['responses']['RegistryServiceUnavailable'];
    };
  };
  getConsole: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The console's index.html. */
      200: {
        headers: {
          /** @description `no-cache` */
          'Cache-Control'?: string;
          [name: string]: unknown;
        };
        content: {
          'text/html': string;
        };
      };
      /** @description The broker was started without a console build. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getConsoleAsset: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        file: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The file. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/css': string;
          'text/javascript': string;
        };
      };
      /** @description No such file in the build. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The broker was started without a console build. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  v2CreateConsumer: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The consumer group name (1 to 255 characters).
         * @example orders-processor
         */
        group_name: components['parameters']['GroupName'];
      };
      cookie?: never;
    };
    requestBody?: components['requestBodies']['V2CreateConsumerRequest'];
    responses: {
      200: components['responses']['V2CreateConsumerResponse'];
      /** @description Malformed JSON (400). */
      400: components['responses']['V2BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      406: components['responses']['V2NotAcceptable'];
      /** @description 40902 a consumer instance with this name already exists in the group; 40907 Kafka clients use the group now (Kafka's group protocol): REST v2 instances can join it once it has no Kafka members. */
      409: components['responses']['V2Conflict'];
      413: components['responses']['V2PayloadTooLarge'];
      415: components['responses']['V2UnsupportedMediaType'];
      /** @description 42204 invalid consumer config: a body that is not an object, an invalid `name` or group name (`.` and `..` are refused: they would be dot segments of `base_uri`), a `format` other than binary or json (avro, jsonschema and protobuf need a schema registry), or an invalid `auto.offset.reset`, `auto.commit.enable`, `fetch.min.bytes` or `consumer.request.timeout.ms`. */
      422: components['responses']['V2UnprocessableEntity'];
      /** @description 42901 this broker already serves its maximum number of consumer instances; retry later. */
      429: components['responses']['V2TooManyRequests'];
      500: components['responses']['V2ServerError'];
      503: components['responses']['V2ServiceUnavailable'];
    };
  };
  v2DeleteConsumer: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The consumer group name (1 to 255 characters).
         * @example orders-processor
         */
        group_name: components['parameters']['GroupName'];
        /**
         * @description The consumer instance id, as returned by `instance_id` on creation.
         * @example consumer-1
         */
        instance: components['parameters']['InstanceName'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The instance was deleted. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description 40403 consumer instance not found. */
      404: components['responses']['V2NotFound'];
      406: components['responses']['V2NotAcceptable'];
      429: components['responses']['V2TooManyRequests'];
      500: components['responses']['V2ServerError'];
      503: components['responses']['V2ServiceUnavailable'];
    };
  };
  v2GetAssignments: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The consumer group name (1 to 255 characters).
         * @example orders-processor
         */
        group_name: components['parameters']['GroupName'];
        /**
         * @description The consumer instance id, as returned by `instance_id` on creation.
         * @example consumer-1
         */
        instance: components['parameters']['InstanceName'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['V2AssignmentsResponse'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description 40403 consumer instance not found. */
      404: components['responses']['V2NotFound'];
      406: components['responses']['V2NotAcceptable'];
      429: components['responses']['V2TooManyRequests'];
      500: components['responses']['V2ServerError'];
    };
  };
  v2AssignPartitions: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The consumer group name (1 to 255 characters).
         * @example orders-processor
         */
        group_name: components['parameters']['GroupName'];
        /**
         * @description The consumer instance id, as returned by `instance_id` on creation.
         * @example consumer-1
         */
        instance: components['parameters']['InstanceName'];
      };
      cookie?: never;
    };
    requestBody: components['requestBodies']['V2PartitionsRequest'];
    responses: {
      /** @description The assignment was stored. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Malformed JSON (400); 40002 the body is not an object or `partitions` is not an array. */
      400: components['responses']['V2BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description 40403 consumer instance not found; 40401 topic not found; 40402 partition not found. */
      404: components['responses']['V2NotFound'];
      406: components['responses']['V2NotAcceptable'];
      /** @description 40901 subscription conflict (the instance is subscribed). */
      409: components['responses']['V2Conflict'];
      413: components['responses']['V2PayloadTooLarge'];
      415: components['responses']['V2UnsupportedMediaType'];
      /** @description 42206 invalid payload (an entry without a topic name or a non-negative integer partition). */
      422: components['responses']['V2UnprocessableEntity'];
      429: components['responses']['V2TooManyRequests'];
      500: components['responses']['V2ServerError'];
      503: components['responses']['V2ServiceUnavailable'];
    };
  };
  v2GetCommittedOffsets: {
    parameters: {
      query?: {
        /**
         * @description A partition whose committed offset to return, as `topic:partition` (repeat the parameter for several). When given, any request body is ignored.
         * @example [
         *       "orders:0",
         *       "orders:1"
         *     ]
         */
        partition?: components['parameters']['CommittedPartition'];
      };
      header?: never;
      path: {
        /**
         * @description The consumer group name (1 to 255 characters).
         * @example orders-processor
         */
        group_name: components['parameters']['GroupName'];
        /**
         * @description The consumer instance id, as returned by `instance_id` on creation.
         * @example consumer-1
         */
        instance: components['parameters']['InstanceName'];
      };
      cookie?: never;
    };
    /** @description Confluent's form; ignored when `partition` query parameters are given. */
    requestBody?: {
      content: {
        'application/json': components['schemas']['V2TopicPartitionList'];
        'application/vnd.kafka.v2+json': components['schemas']['V2TopicPartitionList'];
      };
    };
    responses: {
      200: components['responses']['V2CommittedOffsetsResponse'];
      /** @description A `partition` parameter not of the form `topic:partition`, or a body that is not valid JSON (400); 40002 the body is not an object or `partitions` is not an array. */
      400: components['responses']['V2BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description 40403 consumer instance not found. */
      404: components['responses']['V2NotFound'];
      406: components['responses']['V2NotAcceptable'];
      413: components['responses']['V2PayloadTooLarge'];
      /** @description 42206 invalid payload (an entry without a topic name or a non-negative integer partition). */
      422: components['responses']['V2UnprocessableEntity'];
      429: components['responses']['V2TooManyRequests'];
      500: components['responses']['V2ServerError'];
    };
  };
  v2CommitOffsets: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The consumer group name (1 to 255 characters).
         * @example orders-processor
         */
        group_name: components['parameters']['GroupName'];
        /**
         * @description The consumer instance id, as returned by `instance_id` on creation.
         * @example consumer-1
         */
        instance: components['parameters']['InstanceName'];
      };
      cookie?: never;
    };
    requestBody?: components['requestBodies']['V2CommitOffsetsRequest'];
    responses: {
      200: components['responses']['V2CommitOffsetsResponse'];
      /** @description Malformed JSON (400); 40002 the body is not an object or `offsets` is not an array. */
      400: components['responses']['V2BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description 40403 consumer instance not found; 40401 topic not found; 40402 partition not found. */
      404: components['responses']['V2NotFound'];
      406: components['responses']['V2NotAcceptable'];
      /** @description 40903 commit fenced: the instance is no longer a member, no longer owns the partition, or read its records in an older generation; or (manual assignment) the group has active members. */
      409: components['responses']['V2Conflict'];
      413: components['responses']['V2PayloadTooLarge'];
      415: components['responses']['V2UnsupportedMediaType'];
      /** @description 42206 invalid payload (a malformed topic, partition, offset or metadata). */
      422: components['responses']['V2UnprocessableEntity'];
      429: components['responses']['V2TooManyRequests'];
      500: components['responses']['V2ServerError'];
      503: components['responses']['V2ServiceUnavailable'];
    };
  };
  v2SeekToOffsets: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The consumer group name (1 to 255 characters).
         * @example orders-processor
         */
        group_name: components['parameters']['GroupName'];
        /**
         * @description The consumer instance id, as returned by `instance_id` on creation.
         * @example consumer-1
         */
        instance: components['parameters']['InstanceName'];
      };
      cookie?: never;
    };
    requestBody: components['requestBodies']['V2SeekRequest'];
    responses: {
      /** @description The positions were set. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Malformed JSON (400); 40002 the body is not an object or `offsets` is not an array. */
      400: components['responses']['V2BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description 40403 consumer instance not found. */
      404: components['responses']['V2NotFound'];
      406: components['responses']['V2NotAcceptable'];
      /** @description 40903 a partition is not assigned to the instance. */
      409: components['responses']['V2Conflict'];
      413: components['responses']['V2PayloadTooLarge'];
      415: components['responses']['V2UnsupportedMediaType'];
      /** @description 42206 invalid payload (a malformed topic, partition or offset). */
      422: components['responses']['V2UnprocessableEntity'];
      429: components['responses']['V2TooManyRequests'];
      500: components['responses']['V2ServerError'];
    };
  };
  v2SeekToBeginning: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The consumer group name (1 to 255 characters).
         * @example orders-processor
         */
        group_name: components['parameters']['GroupName'];
        /**
         * @description The consumer instance id, as returned by `instance_id` on creation.
         * @example consumer-1
         */
        instance: components['parameters']['InstanceName'];
      };
      cookie?: never;
    };
    requestBody: components['requestBodies']['V2PartitionsRequest'];
    responses: {
      /** @description The positions were set. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Malformed JSON (400); 40002 the body is not an object or `partitions` is not an array. */
      400: components['responses']['V2BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description 40403 consumer instance not found; 40404 leader not available. */
      404: components['responses']['V2NotFound'];
      406: components['responses']['V2NotAcceptable'];
      /** @description 40903 a partition is not assigned to the instance. */
      409: components['responses']['V2Conflict'];
      413: components['responses']['V2PayloadTooLarge'];
      415: components['responses']['V2UnsupportedMediaType'];
      /** @description 42206 invalid payload (an entry without a topic name or a non-negative integer partition). */
      422: components['responses']['V2UnprocessableEntity'];
      429: components['responses']['V2TooManyRequests'];
      500: components['responses']['V2ServerError'];
      503: components['responses']['V2ServiceUnavailable'];
    };
  };
  v2SeekToEnd: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The consumer group name (1 to 255 characters).
         * @example orders-processor
         */
        group_name: components['parameters']['GroupName'];
        /**
         * @description The consumer instance id, as returned by `instance_id` on creation.
         * @example consumer-1
         */
        instance: components['parameters']['InstanceName'];
      };
      cookie?: never;
    };
    requestBody: components['requestBodies']['V2PartitionsRequest'];
    responses: {
      /** @description The positions were set. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Malformed JSON (400); 40002 the body is not an object or `partitions` is not an array. */
      400: components['responses']['V2BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description 40403 consumer instance not found; 40404 leader not available. */
      404: components['responses']['V2NotFound'];
      406: components['responses']['V2NotAcceptable'];
      /** @description 40903 a partition is not assigned to the instance. */
      409: components['responses']['V2Conflict'];
      413: components['responses']['V2PayloadTooLarge'];
      415: components['responses']['V2UnsupportedMediaType'];
      /** @description 42206 invalid payload (an entry without a topic name or a non-negative integer partition). */
      422: components['responses']['V2UnprocessableEntity'];
      429: components['responses']['V2TooManyRequests'];
      500: components['responses']['V2ServerError'];
      503: components['responses']['V2ServiceUnavailable'];
    };
  };
  v2ConsumeRecords: {
    parameters: {
      query?: {
        /** @description Upper bound on the size of the answer in bytes (at least one record is returned if any exists). */
        max_bytes?: components['parameters']['MaxBytes'];
        /** @description How long to wait for records, in milliseconds (bounded by the broker's maximum wait); defaults to the instance's `consumer.request.timeout.ms`. */
        timeout?: components['parameters']['ConsumeTimeout'];
      };
      header?: never;
      path: {
        /**
         * @description The consumer group name (1 to 255 characters).
         * @example orders-processor
         */
        group_name: components['parameters']['GroupName'];
        /**
         * @description The consumer instance id, as returned by `instance_id` on creation.
         * @example consumer-1
         */
        instance: components['parameters']['InstanceName'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['V2ConsumeRecordsResponse'];
      /** @description `timeout` or `max_bytes` is not a valid integer (400); 40002 a partition has no committed offset and `auto.offset.reset` is none. */
      400: components['responses']['V2BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description 40403 consumer instance not found; 40404 leader not available. */
      404: components['responses']['V2NotFound'];
      /** @description 40601 the `Accept` header asks for the other embedded format than the instance was created with. */
      406: components['responses']['V2NotAcceptable'];
      429: components['responses']['V2TooManyRequests'];
      500: components['responses']['V2ServerError'];
      503: components['responses']['V2ServiceUnavailable'];
    };
  };
  v2GetSubscription: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The consumer group name (1 to 255 characters).
         * @example orders-processor
         */
        group_name: components['parameters']['GroupName'];
        /**
         * @description The consumer instance id, as returned by `instance_id` on creation.
         * @example consumer-1
         */
        instance: components['parameters']['InstanceName'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['V2SubscriptionResponse'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description 40403 consumer instance not found. */
      404: components['responses']['V2NotFound'];
      406: components['responses']['V2NotAcceptable'];
      429: components['responses']['V2TooManyRequests'];
      500: components['responses']['V2ServerError'];
    };
  };
  v2Subscribe: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The consumer group name (1 to 255 characters).
         * @example orders-processor
         */
        group_name: components['parameters']['GroupName'];
        /**
         * @description The consumer instance id, as returned by `instance_id` on creation.
         * @example consumer-1
         */
        instance: components['parameters']['InstanceName'];
      };
      cookie?: never;
    };
    requestBody: components['requestBodies']['V2SubscriptionRequest'];
    responses: {
      /** @description The subscription was stored. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Malformed JSON (400); 40002 the body is not a JSON object. */
      400: components['responses']['V2BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description 40403 consumer instance not found. */
      404: components['responses']['V2NotFound'];
      406: components['responses']['V2NotAcceptable'];
      /** @description 40901 subscription conflict: both `topics` and `topic_pattern` given, or the instance has a manual assignment; 40907 Kafka clients use the group now (Kafka's group protocol). */
      409: components['responses']['V2Conflict'];
      413: components['responses']['V2PayloadTooLarge'];
      415: components['responses']['V2UnsupportedMediaType'];
      /** @description 42206 invalid payload: neither a non-empty `topics` array of topic names nor `topic_pattern`, more than 10000 topics, or a refused `topic_pattern` (the message says why): not a valid regular expression, longer than 512 characters, a construct RE2 does not have, or counted repetitions that expand past the bound. */
      422: components['responses']['V2UnprocessableEntity'];
      429: components['responses']['V2TooManyRequests'];
      500: components['responses']['V2ServerError'];
      503: components['responses']['V2ServiceUnavailable'];
    };
  };
  v2Unsubscribe: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The consumer group name (1 to 255 characters).
         * @example orders-processor
         */
        group_name: components['parameters']['GroupName'];
        /**
         * @description The consumer instance id, as returned by `instance_id` on creation.
         * @example consumer-1
         */
        instance: components['parameters']['InstanceName'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The instance is unsubscribed. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description 40403 consumer instance not found. */
      404: components['responses']['V2NotFound'];
      406: components['responses']['V2NotAcceptable'];
      429: components['responses']['V2TooManyRequests'];
      500: components['responses']['V2ServerError'];
      503: components['responses']['V2ServiceUnavailable'];
    };
  };
  checkLiveness: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The broker process is alive. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "status": "ok"
           *     }
           */
          'application/json': components['schemas']['HealthStatus'];
        };
      };
    };
  };
  getMetrics: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The metrics. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      429: components['responses']['TooManyRequests'];
    };
  };
  registryGetGlobalMode: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['RegistryModeResponse'];
      401: components['responses']['RegistryUnauthorized'];
      403: components['responses']['RegistryForbidden'];
      429: components['responses']['RegistryTooManyRequests'];
      500: components['responses']['RegistryServerError'];
    };
  };
  registrySetGlobalMode: {
    parameters: {
      query?: {
        /** @description Switch to IMPORT even though schemas exist. */
        force?: components['parameters']['RegistryForce'];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: components['requestBodies']['RegistryModeRequest'];
    responses: {
      200: components['responses']['RegistryModeResponse'];
      400: components['responses']['RegistryBadRequest'];
      401: components['responses']['RegistryUnauthorized'];
      403: components['responses']['RegistryForbidden'];
      415: components['responses']['RegistryUnsupportedMediaType'];
      /** @description 42204 invalid mode; 42205 IMPORT while schemas exist, without `force=true`. */
      422: components['responses']['RegistryUnprocessableEntity'];
      429: components['responses']['RegistryTooManyRequests'];
      500: components['responses']['RegistryServerError'];
      503: components['responses']['RegistryServiceUnavailable'];
    };
  };
  registryDeleteGlobalMode: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['RegistryModeResponse'];
      401: components['responses']['RegistryUnauthorized'];
      403: components['responses']['RegistryForbidden'];
      429: components['responses']['RegistryTooManyRequests'];
      500: components['responses']['RegistryServerError'];
      503: components['responses']['RegistryServiceUnavailable'];
    };
  };
  registryGetSubjectMode: {
    parameters: {
      query?: {
        /** @description Answer the global setting when the subject has none of its own. */
        defaultToGlobal?: components['parameters']['RegistryDefaultToGlobal'];
      };
      header?: never;
      path: {
        /** @description The subject (by Confluent's default strategy `<topic>-key` or `<topic>-value`). */
        subject: components['parameters']['RegistrySubject'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['RegistryModeResponse'];
      401: components['responses']['RegistryUnauthorized'];
      403: components['responses']['RegistryForbidden'];
      /** @description 40409 the subject has no mode of its own (without `defaultToGlobal=true`). */
      404: components['responses']['RegistryNotFound'];
      429: components['responses']['RegistryTooManyRequests'];
      500: components['responses']['RegistryServerError'];
    };
  };
  registrySetSubjectMode: {
    parameters: {
      query?: {
        /** @description Switch to IMPORT even though schemas exist. */
        force?: components['parameters']['RegistryForce'];
      };
      header?: never;
      path: {
        /** @description The subject (by Confluent's default strategy `<topic>-key` or `<topic>-value`). */
        subject: components['parameters']['RegistrySubject'];
      };
      cookie?: never;
    };
    requestBody: components['requestBodies']['RegistryModeRequest'];
    responses: {
      200: components['responses']['RegistryModeResponse'];
      400: components['responses']['RegistryBadRequest'];
      401: components['responses']['RegistryUnauthorized'];
      403: components['responses']['RegistryForbidden'];
      415: components['responses']['RegistryUnsupportedMediaType'];
      /** @description 42204 invalid mode; 42205 IMPORT while the subject has schemas, without `force=true`; 42208 invalid subject. */
      422: components['responses']['RegistryUnprocessableEntity'];
      429: components['responses']['RegistryTooManyRequests'];
      500: components['responses']['RegistryServerError'];
      503: components['responses']['RegistryServiceUnavailable'];
    };
  };
  registryDeleteSubjectMode: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The subject (by Confluent's default strategy `<topic>-key` or `<topic>-value`). */
        subject: components['parameters']['RegistrySubject'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['RegistryModeResponse'];
      401: components['responses']['RegistryUnauthorized'];
      403: components['responses']['RegistryForbidden'];
      /** @description 40401 the subject has no mode of its own. */
      404: components['responses']['RegistryNotFound'];
      429: components['responses']['RegistryTooManyRequests'];
      500: components['responses']['RegistryServerError'];
      503: components['responses']['RegistryServiceUnavailable'];
    };
  };
  getOpenApiJson: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The OpenAPI document converted to JSON. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
    };
  };
  getOpenApiYaml: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The OpenAPI document, as stored in the repository. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/yaml': string;
        };
      };
    };
  };
  checkReadiness: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The broker is ready to serve requests. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "status": "ready",
           *       "checks": {
           *         "coordination": true,
           *         "metadata": true
           *       }
           *     }
           */
          'application/json': components['schemas']['ReadinessStatus'];
        };
      };
      /** @description Not ready; `checks` tells which condition fails. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "status": "not_ready",
           *       "checks": {
           *         "coordination": false,
           *         "metadata": true
           *       }
           *     }
           */
          'application/json': components['schemas']['ReadinessStatus'];
        };
      };
    };
  };
  registryGetSchemaById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The schema's global id. */
        id: components['parameters']['RegistrySchemaId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The schema. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.schemaregistry.v1+json': components['schemas']['RegistrySchemaString'];
        };
      };
      401: components['responses']['RegistryUnauthorized'];
      403: components['responses']['RegistryForbidden'];
      /** @description 40403 schema not found. */
      404: components['responses']['RegistryNotFound'];
      429: components['responses']['RegistryTooManyRequests'];
      500: components['responses']['RegistryServerError'];
    };
  };
  registryGetSchemaTextById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The schema's global id. */
        id: components['parameters']['RegistrySchemaId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['RegistrySchemaTextResponse'];
      401: components['responses']['RegistryUnauthorized'];
      403: components['responses']['RegistryForbidden'];
      /** @description 40403 schema not found. */
      404: components['responses']['RegistryNotFound'];
      429: components['responses']['RegistryTooManyRequests'];
      500: components['responses']['RegistryServerError'];
    };
  };
  registryGetSubjectsOfId: {
    parameters: {
      query?: {
        /** @description Include soft-deleted subjects and versions. */
        deleted?: components['parameters']['RegistryDeleted'];
      };
      header?: never;
      path: {
        /** @description The schema's global id. */
        id: components['parameters']['RegistrySchemaId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The subjects with a version of this schema. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.schemaregistry.v1+json': string[];
        };
      };
      401: components['responses']['RegistryUnauthorized'];
      403: components['responses']['RegistryForbidden'];
      /** @description 40403 schema not found. */
      404: components['responses']['RegistryNotFound'];
      429: components['responses']['RegistryTooManyRequests'];
      500: components['responses']['RegistryServerError'];
    };
  };
  registryGetVersionsOfId: {
    parameters: {
      query?: {
        /** @description Include soft-deleted subjects and versions. */
        deleted?: components['parameters']['RegistryDeleted'];
      };
      header?: never;
      path: {
        /** @description The schema's global id. */
        id: components['parameters']['RegistrySchemaId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Each subject and version with this schema. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.schemaregistry.v1+json': components['schemas']['RegistrySubjectAndVersion'][];
        };
      };
      401: components['responses']['RegistryUnauthorized'];
      403: components['responses']['RegistryForbidden'];
      /** @description 40403 schema not found. */
      404: components['responses']['RegistryNotFound'];
      429: components['responses']['RegistryTooManyRequests'];
      500: components['responses']['RegistryServerError'];
    };
  };
  registrySchemaTypes: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The schema types the registry knows. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example [
           *       "AVRO",
           *       "JSON",
           *       "PROTOBUF"
           *     ]
           */
          'application/vnd.schemaregistry.v1+json': components['schemas']['RegistrySchemaType'][];
        };
      };
      401: components['responses']['RegistryUnauthorized'];
      403: components['responses']['RegistryForbidden'];
      429: components['responses']['RegistryTooManyRequests'];
    };
  };
  registryListSubjects: {
    parameters: {
      query?: {
        /** @description Include soft-deleted subjects and versions. */
        deleted?: components['parameters']['RegistryDeleted'];
        /** @description Only the subjects whose name starts with this. */
        subjectPrefix?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The subject names. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.schemaregistry.v1+json': string[];
        };
      };
      401: components['responses']['RegistryUnauthorized'];
      403: components['responses']['RegistryForbidden'];
      429: components['responses']['RegistryTooManyRequests'];
      500: components['responses']['RegistryServerError'];
    };
  };
  registryLookUpSchema: {
    parameters: {
      query?: {
        /** @description Include soft-deleted subjects and versions. */
        deleted?: components['parameters']['RegistryDeleted'];
        /** @description Compare (and store) schemas in their normalized form, as Confluent's registry does. */
        normalize?: components['parameters']['RegistryNormalize'];
      };
      header?: never;
      path: {
        /** @description The subject (by Confluent's default strategy `<topic>-key` or `<topic>-value`). */
        subject: components['parameters']['RegistrySubject'];
      };
      cookie?: never;
    };
    requestBody: components['requestBodies']['RegistrySchemaRequest'];
    responses: {
      200: components['responses']['RegistrySubjectVersionResponse'];
      400: components['responses']['RegistryBadRequest'];
      401: components['responses']['RegistryUnauthorized'];
      403: components['responses']['RegistryForbidden'];
      /** @description 40401 subject not found; 40403 schema not found under the subject. */
      404: components['responses']['RegistryNotFound'];
      413: components['responses']['RegistryPayloadTooLarge'];
      415: components['responses']['RegistryUnsupportedMediaType'];
      /** @description 42201 invalid schema or schema type. */
      422: components['responses']['RegistryUnprocessableEntity'];
      429: components['responses']['RegistryTooManyRequests'];
      500: components['responses']['RegistryServerError'];
    };
  };
  registryDeleteSubject: {
    parameters: {
      query?: {
        /** @description Delete for good (what was soft-deleted first). */
        permanent?: components['parameters']['RegistryPermanent'];
      };
      header?: never;
      path: {
        /** @description The subject (by Confluent's default strategy `<topic>-key` or `<topic>-value`). */
        subject: components['parameters']['RegistrySubject'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['RegistryVersionListResponse'];
      401: components['responses']['RegistryUnauthorized'];
      403: components['responses']['RegistryForbidden'];
      /** @description 40401 subject not found; 40404 subject already soft-deleted; 40405 a permanent delete of a subject not soft-deleted first. */
      404: components['responses']['RegistryNotFound'];
      /** @description 42205 operation not permitted (READONLY mode); 42206 other schemas reference a version. */
      422: components['responses']['RegistryUnprocessableEntity'];
      429: components['responses']['RegistryTooManyRequests'];
      500: components['responses']['RegistryServerError'];
      503: components['responses']['RegistryServiceUnavailable'];
    };
  };
  registryListVersions: {
    parameters: {
      query?: {
        /** @description Include soft-deleted subjects and versions. */
        deleted?: components['parameters']['RegistryDeleted'];
      };
      header?: never;
      path: {
        /** @description The subject (by Confluent's default strategy `<topic>-key` or `<topic>-value`). */
        subject: components['parameters']['RegistrySubject'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['RegistryVersionListResponse'];
      401: components['responses']['RegistryUnauthorized'];
      403: components['responses']['RegistryForbidden'];
      /** @description 40401 subject not found. */
      404: components['responses']['RegistryNotFound'];
      429: components['responses']['RegistryTooManyRequests'];
      500: components['responses']['RegistryServerError'];
    };
  };
  registryRegisterSchema: {
    parameters: {
      query?: {
        /** @description Compare (and store) schemas in their normalized form, as Confluent's registry does. */
        normalize?: components['parameters']['RegistryNormalize'];
      };
      header?: never;
      path: {
        /** @description The subject (by Confluent's default strategy `<topic>-key` or `<topic>-value`). */
        subject: components['parameters']['RegistrySubject'];
      };
      cookie?: never;
    };
    requestBody: components['requestBodies']['RegistrySchemaRequest'];
    responses: {
      /** @description The schema's global id. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": 1
           *     }
           */
          'application/vnd.schemaregistry.v1+json': components['schemas']['RegistryIdResponse'];
        };
      };
      400: components['responses']['RegistryBadRequest'];
      401: components['responses']['RegistryUnauthorized'];
      403: components['responses']['RegistryForbidden'];
      409: components['responses']['RegistryConflict'];
      413: components['responses']['RegistryPayloadTooLarge'];
      415: components['responses']['RegistryUnsupportedMediaType'];
      /** @description 42201 invalid schema or schema type (or a reference that does not resolve); 42202 invalid version; 42205 operation not permitted (READONLY mode, an id outside IMPORT mode, the registry's bound on versions); 42207 an imported id that holds another schema; 42208 invalid subject; 42209 schema too large. */
      422: components['responses']['RegistryUnprocessableEntity'];
      429: components['responses']['RegistryTooManyRequests'];
      500: components['responses']['RegistryServerError'];
      503: components['responses']['RegistryServiceUnavailable'];
    };
  };
  registryGetVersion: {
    parameters: {
      query?: {
        /** @description Include soft-deleted subjects and versions. */
        deleted?: components['parameters']['RegistryDeleted'];
      };
      header?: never;
      path: {
        /** @description The subject (by Confluent's default strategy `<topic>-key` or `<topic>-value`). */
        subject: components['parameters']['RegistrySubject'];
        /** @description A version from 1 to 2^31-1, or `latest` (also -1). */
        version: components['parameters']['RegistryVersion'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['RegistrySubjectVersionResponse'];
      401: components['responses']['RegistryUnauthorized'];
      403: components['responses']['RegistryForbidden'];
      /** @description 40401 subject not found; 40402 version not found. */
      404: components['responses']['RegistryNotFound'];
      /** @description 42202 invalid version. */
      422: components['responses']['RegistryUnprocessableEntity'];
      429: components['responses']['RegistryTooManyRequests'];
      500: components['responses']['RegistryServerError'];
    };
  };
  registryDeleteVersion: {
    parameters: {
      query?: {
        /** @description Delete for good (what was soft-deleted first). */
        permanent?: components['parameters']['RegistryPermanent'];
      };
      header?: never;
      path: {
        /** @description The subject (by Confluent's default strategy `<topic>-key` or `<topic>-value`). */
        subject: components['parameters']['RegistrySubject'];
        /** @description A version from 1 to 2^31-1, or `latest` (also -1). */
        version: components['parameters']['RegistryVersion'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The version deleted. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.schemaregistry.v1+json': number;
        };
      };
      401: components['responses']['RegistryUnauthorized'];
      403: components['responses']['RegistryForbidden'];
      /** @description 40401 subject not found; 40402 version not found; 40406 version already soft-deleted; 40407 a permanent delete of a version not soft-deleted first. */
      404: components['responses']['RegistryNotFound'];
      /** @description 42202 invalid version; 42205 operation not permitted (READONLY mode); 42206 other schemas reference it. */
      422: components['responses']['RegistryUnprocessableEntity'];
      429: components['responses']['RegistryTooManyRequests'];
      500: components['responses']['RegistryServerError'];
      503: components['responses']['RegistryServiceUnavailable'];
    };
  };
  registryReferencedBy: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The subject (by Confluent's default strategy `<topic>-key` or `<topic>-value`). */
        subject: components['parameters']['RegistrySubject'];
        /** @description A version from 1 to 2^31-1, or `latest` (also -1). */
        version: components['parameters']['RegistryVersion'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['RegistryIdListResponse'];
      401: components['responses']['RegistryUnauthorized'];
      403: components['responses']['RegistryForbidden'];
      /** @description 40401 subject not found; 40402 version not found. */
      404: components['responses']['RegistryNotFound'];
      /** @description 42202 invalid version. */
      422: components['responses']['RegistryUnprocessableEntity'];
      429: components['responses']['RegistryTooManyRequests'];
      500: components['responses']['RegistryServerError'];
    };
  };
  registryGetVersionSchema: {
    parameters: {
      query?: {
        /** @description Include soft-deleted subjects and versions. */
        deleted?: components['parameters']['RegistryDeleted'];
      };
      header?: never;
      path: {
        /** @description The subject (by Confluent's default strategy `<topic>-key` or `<topic>-value`). */
        subject: components['parameters']['RegistrySubject'];
        /** @description A version from 1 to 2^31-1, or `latest` (also -1). */
        version: components['parameters']['RegistryVersion'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['RegistrySchemaTextResponse'];
      401: components['responses']['RegistryUnauthorized'];
      403: components['responses']['RegistryForbidden'];
      /** @description 40401 subject not found; 40402 version not found. */
      404: components['responses']['RegistryNotFound'];
      /** @description 42202 invalid version. */
      422: components['responses']['RegistryUnprocessableEntity'];
      429: components['responses']['RegistryTooManyRequests'];
      500: components['responses']['RegistryServerError'];
    };
  };
  v2ListTopics: {
    parameters: {
      query?: {
        /** @description Brook's addition: `true` also lists internal topics (`__consumer_offsets`), which are hidden by default; `brook topics --list` asks for them, as `kafka-topics.sh --list` shows them. */
        include_internal?: components['parameters']['IncludeInternal'];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['V2ListTopicsResponse'];
      /** @description `include_internal` is neither true nor false (400). */
      400: components['responses']['V2BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      406: components['responses']['V2NotAcceptable'];
      429: components['responses']['V2TooManyRequests'];
      500: components['responses']['V2ServerError'];
    };
  };
  v2GetTopic: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The topic name. */
        topic_name: components['parameters']['TopicName'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['V2GetTopicResponse'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description 40401 topic not found. */
      404: components['responses']['V2NotFound'];
      406: components['responses']['V2NotAcceptable'];
      429: components['responses']['V2TooManyRequests'];
      500: components['responses']['V2ServerError'];
    };
  };
  v2ProduceToTopic: {
    parameters: {
      query?: {
        /** @description When to acknowledge: `0` without waiting for the write (the reported offset is then -1, as Kafka's producer reports it), `1` once the leader has written the records, `all` once every in-sync replica has them. */
        acks?: components['parameters']['Acks'];
      };
      header?: {
        /** @description The producer epoch that came with `Brook-Producer-Id`. */
        'Brook-Producer-Epoch'?: components['parameters']['BrookProducerEpoch'];
        /** @description An idempotent producer's id, from `POST /v3/clusters/{cluster_id}/producers`. With `Brook-Producer-Epoch` and `Brook-Producer-Sequence` (all three or none), the partition leader dedupes retries: a request whose records it already appended (one of the producer's last five batches in that partition) is answered with the original offsets and appends nothing, through restarts and leader changes. Record *i* of the request (in streaming mode, record *i* of the stream, from 0) has sequence `Brook-Producer-Sequence + i`. Every record must name its partition (the route's, or `partition_id`/`partition`) or have a key, else 42206. When all records go to one named partition, Kafka's rule holds: the next request to that partition starts at the next sequence, any other is 40908. Records spread over partitions by key may leave gaps in each partition's sequence, which must still only move forward. An older epoch than the partition's is 40909 (fenced); a new epoch starts at sequence 0. A producer silent for `BROOK_PRODUCER_ID_EXPIRATION_MS` (default 24 h), or whose last batch retention deleted, is forgotten and may start again at any sequence. */
        'Brook-Producer-Id'?: components['parameters']['BrookProducerId'];
        /** @description The sequence of the request's first record (see `Brook-Producer-Id`). */
        'Brook-Producer-Sequence'?: components['parameters']['BrookProducerSequence'];
        /** @description Makes a produce request safe to retry: a retry with the same key, by the same principal, to the same topic, within `BROOK_IDEMPOTENCY_RETENTION_MS` (default 24 h) is answered with the original status and body, rebuilt from the outcome the partition leaders kept (offsets, timestamps), with `Idempotent-Replayed: true`, and appends nothing, through whichever broker of the cluster it comes, after restarts and leader failover. The same key with another body is 422 (42291); a key whose first request is not answered yet, or whose records the in-sync replicas do not all hold yet, is 409 (40906): retry later. Only final outcomes are kept: records of a partition that failed (40404, 50003, an unknown outcome) are appended by the retry, and the partitions that did append answer their original offsets (no `Idempotent-Replayed` then, since the retry appended something). Records without a key or partition go to the partition the key names. In streaming mode each record of the stream is keyed by its position (from 0); the head carries no `Idempotent-Replayed` (it is written before the records are read): a replayed record's delivery report carries `replayed: true` instead. Not with the `Brook-Producer-*` headers (400). Each partition remembers at most `BROOK_PRODUCER_IDS_PER_PARTITION_MAX` keys and producer ids; beyond that the least recently used is forgotten. Every request with a key writes its key's home partition (where its keyless records go) first, with a marker there (an empty batch: one offset, no record) when none of its records go there, so another body is refused before anything is appended, whatever partitions its records go to; adding partitions to the topic moves the home partition. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey'];
      };
      path: {
        /** @description The topic name. */
        topic_name: components['parameters']['TopicName'];
      };
      cookie?: never;
    };
    requestBody: components['requestBodies']['V2ProduceRequest'];
    responses: {
      200: components['responses']['V2ProduceResponse'];
      /** @description Malformed JSON (400). */
      400: components['responses']['V2BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description 40401 topic not found. */
      404: components['responses']['V2NotFound'];
      406: components['responses']['V2NotAcceptable'];
      /** @description With `Idempotency-Key`: 40906 the first request with this key is still in flight (retry later); nothing was appended. */
      409: components['responses']['V2Conflict'];
      413: components['responses']['V2PayloadTooLarge'];
      415: components['responses']['V2UnsupportedMediaType'];
      /** @description 42291 the `Idempotency-Key` was used with another request body (nothing appended). `records` missing or empty, or a key/value that does not match the embedded format (422 or 42206); a `Brook-Producer-Sequence` request with a record that has neither a partition nor a key (42206). Records the producer state refuses are reported in `offsets[]` with 40908 or 40909. */
      422: components['responses']['V2UnprocessableEntity'];
      429: components['responses']['V2TooManyRequests'];
      500: components['responses']['V2ServerError'];
      503: components['responses']['V2ServiceUnavailable'];
    };
  };
  v2ListPartitions: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The topic name. */
        topic_name: components['parameters']['TopicName'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['V2ListPartitionsResponse'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description 40401 topic not found. */
      404: components['responses']['V2NotFound'];
      406: components['responses']['V2NotAcceptable'];
      429: components['responses']['V2TooManyRequests'];
      500: components['responses']['V2ServerError'];
    };
  };
  v2GetPartition: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The partition id. */
        partition_id: components['parameters']['PartitionId'];
        /** @description The topic name. */
        topic_name: components['parameters']['TopicName'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['V2GetPartitionResponse'];
      /** @description `partition_id` is not a non-negative integer (400). */
      400: components['responses']['V2BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description 40401 topic not found; 40402 partition not found. */
      404: components['responses']['V2NotFound'];
      406: components['responses']['V2NotAcceptable'];
      429: components['responses']['V2TooManyRequests'];
      500: components['responses']['V2ServerError'];
    };
  };
  v2ProduceToPartition: {
    parameters: {
      query?: {
        /** @description When to acknowledge: `0` without waiting for the write (the reported offset is then -1, as Kafka's producer reports it), `1` once the leader has written the records, `all` once every in-sync replica has them. */
        acks?: components['parameters']['Acks'];
      };
      header?: {
        /** @description The producer epoch that came with `Brook-Producer-Id`. */
        'Brook-Producer-Epoch'?: components['parameters']['BrookProducerEpoch'];
        /** @description An idempotent producer's id, from `POST /v3/clusters/{cluster_id}/producers`. With `Brook-Producer-Epoch` and `Brook-Producer-Sequence` (all three or none), the partition leader dedupes retries: a request whose records it already appended (one of the producer's last five batches in that partition) is answered with the original offsets and appends nothing, through restarts and leader changes. Record *i* of the request (in streaming mode, record *i* of the stream, from 0) has sequence `Brook-Producer-Sequence + i`. Every record must name its partition (the route's, or `partition_id`/`partition`) or have a key, else 42206. When all records go to one named partition, Kafka's rule holds: the next request to that partition starts at the next sequence, any other is 40908. Records spread over partitions by key may leave gaps in each partition's sequence, which must still only move forward. An older epoch than the partition's is 40909 (fenced); a new epoch starts at sequence 0. A producer silent for `BROOK_PRODUCER_ID_EXPIRATION_MS` (default 24 h), or whose last batch retention deleted, is forgotten and may start again at any sequence. */
        'Brook-Producer-Id'?: components['parameters']['BrookProducerId'];
        /** @description The sequence of the request's first record (see `Brook-Producer-Id`). */
        'Brook-Producer-Sequence'?: components['parameters']['BrookProducerSequence'];
        /** @description Makes a produce request safe to retry: a retry with the same key, by the same principal, to the same topic, within `BROOK_IDEMPOTENCY_RETENTION_MS` (default 24 h) is answered with the original status and body, rebuilt from the outcome the partition leaders kept (offsets, timestamps), with `Idempotent-Replayed: true`, and appends nothing, through whichever broker of the cluster it comes, after restarts and leader failover. The same key with another body is 422 (42291); a key whose first request is not answered yet, or whose records the in-sync replicas do not all hold yet, is 409 (40906): retry later. Only final outcomes are kept: records of a partition that failed (40404, 50003, an unknown outcome) are appended by the retry, and the partitions that did append answer their original offsets (no `Idempotent-Replayed` then, since the retry appended something). Records without a key or partition go to the partition the key names. In streaming mode each record of the stream is keyed by its position (from 0); the head carries no `Idempotent-Replayed` (it is written before the records are read): a replayed record's delivery report carries `replayed: true` instead. Not with the `Brook-Producer-*` headers (400). Each partition remembers at most `BROOK_PRODUCER_IDS_PER_PARTITION_MAX` keys and producer ids; beyond that the least recently used is forgotten. Every request with a key writes its key's home partition (where its keyless records go) first, with a marker there (an empty batch: one offset, no record) when none of its records go there, so another body is refused before anything is appended, whatever partitions its records go to; adding partitions to the topic moves the home partition. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey'];
      };
      path: {
        /** @description The partition id. */
        partition_id: components['parameters']['PartitionId'];
        /** @description The topic name. */
        topic_name: components['parameters']['TopicName'];
      };
      cookie?: never;
    };
    requestBody: components['requestBodies']['V2ProduceRequest'];
    responses: {
      200: components['responses']['V2ProduceResponse'];
      /** @description Malformed JSON (400). */
      400: components['responses']['V2BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description 40401 topic not found; 40402 partition not found. */
      404: components['responses']['V2NotFound'];
      406: components['responses']['V2NotAcceptable'];
      /** @description With `Idempotency-Key`: 40906 the first request with this key is still in flight (retry later); nothing was appended. */
      409: components['responses']['V2Conflict'];
      413: components['responses']['V2PayloadTooLarge'];
      415: components['responses']['V2UnsupportedMediaType'];
      /** @description 42291 the `Idempotency-Key` was used with another request body (nothing appended). `records` missing or empty, or a key/value that does not match the embedded format (422 or 42206); a `Brook-Producer-Sequence` request with a record that has neither a partition nor a key (42206). Records the producer state refuses are reported in `offsets[]` with 40908 or 40909. */
      422: components['responses']['V2UnprocessableEntity'];
      429: components['responses']['V2TooManyRequests'];
      500: components['responses']['V2ServerError'];
      503: components['responses']['V2ServiceUnavailable'];
    };
  };
  v2GetPartitionOffsets: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The partition id. */
        partition_id: components['parameters']['PartitionId'];
        /** @description The topic name. */
        topic_name: components['parameters']['TopicName'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['V2PartitionOffsetsResponse'];
      /** @description `partition_id` is not a non-negative integer (400). */
      400: components['responses']['V2BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description 40401 topic not found; 40402 partition not found. */
      404: components['responses']['V2NotFound'];
      406: components['responses']['V2NotAcceptable'];
      429: components['responses']['V2TooManyRequests'];
      500: components['responses']['V2ServerError'];
    };
  };
  listClusters: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['ListClustersResponse'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      406: components['responses']['NotAcceptable'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
    };
  };
  getCluster: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['GetClusterResponse'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster (error_code 404). */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
    };
  };
  searchAcls: {
    parameters: {
      query?: {
        /** @description The host, * for every host. */
        host?: components['parameters']['AclHost'];
        /** @description The operation. */
        operation?: components['parameters']['AclOperation'];
        /** @description The pattern type. */
        pattern_type?: components['parameters']['AclPatternType'];
        /** @description The permission. */
        permission?: components['parameters']['AclPermission'];
        /** @description The principal, such as User:alice. */
        principal?: components['parameters']['AclPrincipal'];
        /** @description The resource name (exact, or the resource to match with pattern_type MATCH). */
        resource_name?: components['parameters']['AclResourceName'];
        /** @description The resource type (ANY for all). */
        resource_type?: components['parameters']['AclResourceType'];
      };
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The matching ACLs. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AclDataList'];
        };
      };
      /** @description A parameter has a value outside its enum (40002). */
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster (error_code 404). */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
    };
  };
  createAcls: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "resource_type": "TOPIC",
         *       "resource_name": "orders",
         *       "pattern_type": "LITERAL",
         *       "principal": "User:alice",
         *       "host": "*",
         *       "operation": "READ",
         *       "permission": "ALLOW"
         *     }
         */
        'application/json': components['schemas']['CreateAclRequestData'];
      };
    };
    responses: {
      /** @description The ACL was created. */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Malformed JSON (400) or a field missing or outside its enum (40002). */
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster (error_code 404). */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      415: components['responses']['UnsupportedMediaType'];
      /** @description 42206 the request body is empty. */
      422: components['responses']['UnprocessableEntity'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
    };
  };
  deleteAcls: {
    parameters: {
      query?: {
        /** @description The host, * for every host. */
        host?: components['parameters']['AclHost'];
        /** @description The operation. */
        operation?: components['parameters']['AclOperation'];
        /** @description The pattern type. */
        pattern_type?: components['parameters']['AclPatternType'];
        /** @description The permission. */
        permission?: components['parameters']['AclPermission'];
        /** @description The principal, such as User:alice. */
        principal?: components['parameters']['AclPrincipal'];
        /** @description The resource name (exact, or the resource to match with pattern_type MATCH). */
        resource_name?: components['parameters']['AclResourceName'];
        /** @description The resource type (ANY for all). */
        resource_type?: components['parameters']['AclResourceType'];
      };
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The deleted ACLs. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['AclData'][];
          };
        };
      };
      /** @description resource_type missing, or a parameter outside its enum (40002). */
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster (error_code 404). */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
    };
  };
  batchCreateAcls: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "data": [
         *         {
         *           "resource_type": "TOPIC",
         *           "resource_name": "orders",
         *           "pattern_type": "LITERAL",
         *           "principal": "User:alice",
         *           "host": "*",
         *           "operation": "READ",
         *           "permission": "ALLOW"
         *         }
         *       ]
         *     }
         */
        'application/json': components['schemas']['CreateAclRequestDataList'];
      };
    };
    responses: {
      /** @description The ACLs were created. */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Malformed JSON (400), no data array, too many entries, or an entry refused (40002). */
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster (error_code 404). */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      415: components['responses']['UnsupportedMediaType'];
      /** @description The request body is empty (42206). */
      422: components['responses']['UnprocessableEntity'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
    };
  };
  listClusterConfigs: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['ListClusterConfigsResponse'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster (error_code 404). */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
    };
  };
  updateClusterConfigs: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
      };
      cookie?: never;
    };
    requestBody: components['requestBodies']['AlterClusterConfigBatchRequest'];
    responses: {
      /** @description The configs were altered (or, with `validate_only`, would be). */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Malformed JSON or a `broker_id` that is not an integer (400); 40002 an unknown or read-only config name ("Cannot update these configs dynamically") or an invalid value. */
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster (error_code 404). */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      415: components['responses']['UnsupportedMediaType'];
      /** @description 42206 the request body is empty; `data` missing or an entry without `name` (422). */
      422: components['responses']['UnprocessableEntity'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  getClusterConfig: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /** @description The config name, such as `retention.ms`. */
        name: components['parameters']['ConfigName'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['GetClusterConfigResponse'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster, or no cluster-wide value is set for this config (error_code 404). */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
    };
  };
  updateClusterConfig: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /** @description The config name, such as `retention.ms`. */
        name: components['parameters']['ConfigName'];
      };
      cookie?: never;
    };
    requestBody: components['requestBodies']['UpdateClusterConfigRequest'];
    responses: {
      /** @description The config was updated. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Malformed JSON or a `broker_id` that is not an integer (400); 40002 an unknown or read-only config name ("Cannot update these configs dynamically") or an invalid value. */
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster (error_code 404). */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      415: components['responses']['UnsupportedMediaType'];
      /** @description 42206 the request body is empty. */
      422: components['responses']['UnprocessableEntity'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  deleteClusterConfig: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /** @description The config name, such as `retention.ms`. */
        name: components['parameters']['ConfigName'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The config was reset. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster or config name (error_code 404). */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  listBrokers: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['ListBrokersResponse'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster (error_code 404). */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  listAllBrokerConfigs: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['ListBrokerConfigsResponse'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster (error_code 404). */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
    };
  };
  getBroker: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The broker id. */
        broker_id: components['parameters']['BrokerId'];
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['GetBrokerResponse'];
      /** @description `broker_id` is not an integer (error_code 400). */
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster or broker (error_code 404). */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  listBrokerConfigs: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The broker id. */
        broker_id: components['parameters']['BrokerId'];
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['ListBrokerConfigsResponse'];
      /** @description `broker_id` is not an integer (400). */
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster, or no live broker with this id (error_code 404). */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
    };
  };
  updateBrokerConfigs: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The broker id. */
        broker_id: components['parameters']['BrokerId'];
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
      };
      cookie?: never;
    };
    requestBody: components['requestBodies']['AlterBrokerConfigBatchRequest'];
    responses: {
      /** @description The configs were altered (or, with `validate_only`, would be). */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Malformed JSON or a `broker_id` that is not an integer (400); 40002 an unknown or read-only config name ("Cannot update these configs dynamically") or an invalid value. */
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster, or no live broker with this id (error_code 404). */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      415: components['responses']['UnsupportedMediaType'];
      /** @description 42206 the request body is empty; `data` missing or an entry without `name` (422). */
      422: components['responses']['UnprocessableEntity'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  getBrokerConfig: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The broker id. */
        broker_id: components['parameters']['BrokerId'];
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /** @description The config name, such as `retention.ms`. */
        name: components['parameters']['ConfigName'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['GetBrokerConfigResponse'];
      /** @description `broker_id` is not an integer (400). */
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster, broker or config name (error_code 404). */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
    };
  };
  updateBrokerConfig: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The broker id. */
        broker_id: components['parameters']['BrokerId'];
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /** @description The config name, such as `retention.ms`. */
        name: components['parameters']['ConfigName'];
      };
      cookie?: never;
    };
    requestBody: components['requestBodies']['UpdateBrokerConfigRequest'];
    responses: {
      /** @description The config was updated. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Malformed JSON or a `broker_id` that is not an integer (400); 40002 an unknown or read-only config name ("Cannot update these configs dynamically") or an invalid value. */
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster, or no live broker with this id (error_code 404). */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      415: components['responses']['UnsupportedMediaType'];
      /** @description 42206 the request body is empty. */
      422: components['responses']['UnprocessableEntity'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  deleteBrokerConfig: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The broker id. */
        broker_id: components['parameters']['BrokerId'];
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /** @description The config name, such as `retention.ms`. */
        name: components['parameters']['ConfigName'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The config was reset. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `broker_id` is not an integer (400). */
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster, broker or config name (error_code 404). */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  searchReplicasByBroker: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The broker id. */
        broker_id: components['parameters']['BrokerId'];
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['SearchReplicasByBrokerResponse'];
      /** @description `broker_id` is not an integer (400). */
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster or broker (error_code 404). */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
    };
  };
  listClientQuotas: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The configured quotas. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ClientQuotaDataList'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster (error_code 404). */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
    };
  };
  getClientQuota: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /** @description The principal (`User:alice`) or `<default>` for every principal without quotas of its own. */
        entity: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The entity's quotas. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ClientQuotaData'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster, or no quotas set for the entity (error_code 404). */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
    };
  };
  setClientQuota: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /** @description The principal (`User:alice`) or `<default>` for every principal without quotas of its own. */
        entity: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "producer_byte_rate": 1048576,
         *       "request_rate": 100
         *     }
         */
        'application/json': components['schemas']['ClientQuotaValues'];
      };
    };
    responses: {
      /** @description The entity's quotas as stored. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ClientQuotaData'];
        };
      };
      /** @description Malformed JSON (400), or an invalid entity, unknown quota name or non-positive value (40002). */
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster (error_code 404). */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      415: components['responses']['UnsupportedMediaType'];
      /** @description 42206 the request body is empty. */
      422: components['responses']['UnprocessableEntity'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
    };
  };
  deleteClientQuota: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /** @description The principal (`User:alice`) or `<default>` for every principal without quotas of its own. */
        entity: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The entity's quotas were removed. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster, or no quotas set for the entity (error_code 404). */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
    };
  };
  listConsumerGroups: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['ListConsumerGroupsResponse'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster (error_code 404). */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
    };
  };
  getConsumerGroup: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /**
         * @description The consumer group id.
         * @example orders-processor
         */
        consumer_group_id: components['parameters']['ConsumerGroupId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['GetConsumerGroupResponse'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster or consumer group (error_code 404). */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
    };
  };
  deleteConsumerGroup: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /**
         * @description The consumer group id.
         * @example orders-processor
         */
        consumer_group_id: components['parameters']['ConsumerGroupId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The group was deleted. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster or consumer group (error_code 404). */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      /** @description 40904 the group still has members or consumer instances. */
      409: components['responses']['Conflict'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  listConsumers: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /**
         * @description The consumer group id.
         * @example orders-processor
         */
        consumer_group_id: components['parameters']['ConsumerGroupId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['ListConsumersResponse'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster or consumer group (error_code 404). */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
    };
  };
  getConsumer: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /**
         * @description The consumer group id.
         * @example orders-processor
         */
        consumer_group_id: components['parameters']['ConsumerGroupId'];
        /** @description The consumer (group member) id. */
        consumer_id: components['parameters']['ConsumerId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['GetConsumerResponse'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster, consumer group or consumer (error_code 404). */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
    };
  };
  listConsumerAssignments: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /**
         * @description The consumer group id.
         * @example orders-processor
         */
        consumer_group_id: components['parameters']['ConsumerGroupId'];
        /** @description The consumer (group member) id. */
        consumer_id: components['parameters']['ConsumerId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['ListConsumerAssignmentsResponse'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster, consumer group or consumer (error_code 404). */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
    };
  };
  getConsumerAssignment: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /**
         * @description The consumer group id.
         * @example orders-processor
         */
        consumer_group_id: components['parameters']['ConsumerGroupId'];
        /** @description The consumer (group member) id. */
        consumer_id: components['parameters']['ConsumerId'];
        /** @description The partition id. */
        partition_id: components['parameters']['PartitionId'];
        /** @description The topic name. */
        topic_name: components['parameters']['TopicName'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['GetConsumerAssignmentResponse'];
      /** @description `partition_id` is not an integer (400). */
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster, consumer group or consumer, or the partition is not assigned to the consumer (error_code 404). */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
    };
  };
  getConsumerGroupLagSummary: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /**
         * @description The consumer group id.
         * @example orders-processor
         */
        consumer_group_id: components['parameters']['ConsumerGroupId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['GetConsumerGroupLagSummaryResponse'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster or consumer group (error_code 404). */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
    };
  };
  listConsumerLags: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /**
         * @description The consumer group id.
         * @example orders-processor
         */
        consumer_group_id: components['parameters']['ConsumerGroupId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['ListConsumerLagsResponse'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster or consumer group (error_code 404). */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
    };
  };
  getConsumerLag: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /**
         * @description The consumer group id.
         * @example orders-processor
         */
        consumer_group_id: components['parameters']['ConsumerGroupId'];
        /** @description The partition id. */
        partition_id: components['parameters']['PartitionId'];
        /** @description The topic name. */
        topic_name: components['parameters']['TopicName'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['GetConsumerLagResponse'];
      /** @description `partition_id` is not a non-negative integer (400). */
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster or consumer group, or the group has no lag for this partition (neither a committed offset nor an owner) (error_code 404). */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
    };
  };
  resetConsumerGroupOffsets: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /**
         * @description The consumer group id.
         * @example orders-processor
         */
        consumer_group_id: components['parameters']['ConsumerGroupId'];
      };
      cookie?: never;
    };
    requestBody: components['requestBodies']['ResetConsumerGroupOffsetsRequest'];
    responses: {
      200: components['responses']['ResetConsumerGroupOffsetsResponse'];
      /** @description Malformed JSON or a `timestamp` that is neither epoch milliseconds nor RFC 3339 (400); 40002 invalid request (body not an object, unknown `to`, `offset` missing or negative for `to: offset`, `timestamp` missing for `to: timestamp`, malformed `topics`, `dry_run` not a boolean). */
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster, or unknown consumer group without `topics` (404); 40401 topic not found; 40402 partition not found; 40404 leader not available. */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      /** @description 40904 the group has active members; stop them first. */
      409: components['responses']['Conflict'];
      415: components['responses']['UnsupportedMediaType'];
      /** @description 42206 the request body is empty. */
      422: components['responses']['UnprocessableEntity'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  initProducerId: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /** @example {} */
        'application/json': Record<string, never>;
      };
    };
    responses: {
      /** @description The producer id and epoch. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "kind": "KafkaProducer",
           *       "cluster_id": "brook-1",
           *       "producer_id": 1000,
           *       "producer_epoch": 0
           *     }
           */
          'application/json': components['schemas']['ProducerIdResponse'];
        };
      };
      /** @description 40002 the body is not an empty JSON object. */
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster (404). */
      404: components['responses']['NotFound'];
      /** @description 42206 no body ("Payload error. Request body is empty. Data is required."). */
      422: components['responses']['UnprocessableEntity'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
      /** @description 50003 (retry): the coordination store is being restored, or a live broker did not keep the new block. */
      503: components['responses']['ServiceUnavailable'];
    };
  };
  getClusterStatus: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The cluster's status. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['BrookClusterStatus'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster (error_code 404). */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  listTopicStats: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The statistics of the topics. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['BrookTopicStatsList'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster (error_code 404). */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  listTopics: {
    parameters: {
      query?: {
        /** @description Brook's addition: `true` also lists internal topics (`__consumer_offsets`), which are hidden by default; `brook topics --list` asks for them, as `kafka-topics.sh --list` shows them. */
        include_internal?: components['parameters']['IncludeInternal'];
      };
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['ListTopicsResponse'];
      /** @description `include_internal` is neither true nor false (400). */
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster (error_code 404). */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
    };
  };
  createTopic: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
      };
      cookie?: never;
    };
    requestBody: components['requestBodies']['CreateTopicRequest'];
    responses: {
      /** @description Dry run (`validate_only`); the topic was not created. */
      200: components['responses']['GetTopicResponse'];
      /** @description The created topic. */
      201: components['responses']['GetTopicResponse'];
      /** @description Malformed JSON (400); 40002 topic already exists, invalid topic name, invalid partition count, invalid replication factor (larger than the number of live brokers) or invalid config. */
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster (error_code 404). */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      415: components['responses']['UnsupportedMediaType'];
      /** @description 42206 the request body is empty; the body is well-formed JSON but misses `topic_name` or has fields of the wrong type (422). */
      422: components['responses']['UnprocessableEntity'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  listAllTopicConfigs: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['ListTopicConfigsResponse'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster (error_code 404). */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
    };
  };
  electLeaders: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
      };
      cookie?: never;
    };
    requestBody: components['requestBodies']['ElectLeadersRequest'];
    responses: {
      200: components['responses']['ElectLeadersResponse'];
      /** @description Malformed JSON (400); 40002 invalid request (`election_type` not PREFERRED or UNCLEAN, `partitions` empty or an entry without `topic_name` or `partition_id`). */
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster (404). */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      415: components['responses']['UnsupportedMediaType'];
      /** @description 42206 the request body is empty. */
      422: components['responses']['UnprocessableEntity'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  listClusterPartitionReassignments: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['ListReassignmentsResponse'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster (404). */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
    };
  };
  alterPartitionReassignments: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
      };
      cookie?: never;
    };
    requestBody: components['requestBodies']['AlterPartitionReassignmentsRequest'];
    responses: {
      202: components['responses']['ListReassignmentsResponse'];
      /** @description Malformed JSON (400); 40002 invalid request (`partitions` missing or empty, an entry without `topic_name` or `partition_id`, `replicas` not a list of broker ids or null, an empty list, a broker listed twice, a broker that is not registered, the same partition twice). */
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster, or a cancellation of a partition with no reassignment in progress (404); 40401 topic not found; 40402 partition not found. */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      415: components['responses']['UnsupportedMediaType'];
      /** @description 42206 the request body is empty. */
      422: components['responses']['UnprocessableEntity'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  getTopic: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /** @description The topic name. */
        topic_name: components['parameters']['TopicName'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['GetTopicResponse'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster (404) or 40401 topic not found. */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
    };
  };
  deleteTopic: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /** @description The topic name. */
        topic_name: components['parameters']['TopicName'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The topic was deleted. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster (404) or 40401 topic not found. */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  updateTopicPartitionCount: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /** @description The topic name. */
        topic_name: components['parameters']['TopicName'];
      };
      cookie?: never;
    };
    requestBody: components['requestBodies']['UpdatePartitionCountRequest'];
    responses: {
      200: components['responses']['GetTopicResponse'];
      /** @description Malformed JSON (400); 40002 the new count is not larger than the current one. */
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster (404) or 40401 topic not found. */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      /** @description 40901 a partition reassignment of the topic is in progress (Kafka's REASSIGNMENT_IN_PROGRESS). */
      409: components['responses']['Conflict'];
      415: components['responses']['UnsupportedMediaType'];
      /** @description 42206 the request body is empty; `partitions_count` missing or not an integer (422). */
      422: components['responses']['UnprocessableEntity'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  listTopicConfigs: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /** @description The topic name. */
        topic_name: components['parameters']['TopicName'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['ListTopicConfigsResponse'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster (404) or 40401 topic not found. */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
    };
  };
  updateTopicConfigBatch: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /** @description The topic name. */
        topic_name: components['parameters']['TopicName'];
      };
      cookie?: never;
    };
    requestBody: components['requestBodies']['AlterTopicConfigBatchRequest'];
    responses: {
      /** @description The configs were altered (or, with `validate_only`, would be). */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Malformed JSON (400); 40002 unknown config name or invalid value. */
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster (404) or 40401 topic not found. */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      415: components['responses']['UnsupportedMediaType'];
      /** @description 42206 the request body is empty; `data` missing or an entry without `name` (422). */
      422: components['responses']['UnprocessableEntity'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  getTopicConfig: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /** @description The config name, such as `retention.ms`. */
        name: components['parameters']['ConfigName'];
        /** @description The topic name. */
        topic_name: components['parameters']['TopicName'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['GetTopicConfigResponse'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster or config name (404); 40401 topic not found. */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
    };
  };
  updateTopicConfig: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /** @description The config name, such as `retention.ms`. */
        name: components['parameters']['ConfigName'];
        /** @description The topic name. */
        topic_name: components['parameters']['TopicName'];
      };
      cookie?: never;
    };
    requestBody: components['requestBodies']['UpdateTopicConfigRequest'];
    responses: {
      /** @description The config was updated. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Malformed JSON (400); 40002 invalid value for this config. */
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster or config name (404); 40401 topic not found. */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      415: components['responses']['UnsupportedMediaType'];
      /** @description 42206 the request body is empty. */
      422: components['responses']['UnprocessableEntity'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  deleteTopicConfig: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /** @description The config name, such as `retention.ms`. */
        name: components['parameters']['ConfigName'];
        /** @description The topic name. */
        topic_name: components['parameters']['TopicName'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The config was reset. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster or config name (404); 40401 topic not found. */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  listPartitions: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /** @description The topic name. */
        topic_name: components['parameters']['TopicName'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['ListPartitionsResponse'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster (404) or 40401 topic not found. */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
    };
  };
  listTopicPartitionReassignments: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /** @description The topic name. */
        topic_name: components['parameters']['TopicName'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['ListReassignmentsResponse'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster (404) or 40401 topic not found. */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
    };
  };
  getPartition: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /** @description The partition id. */
        partition_id: components['parameters']['PartitionId'];
        /** @description The topic name. */
        topic_name: components['parameters']['TopicName'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['GetPartitionResponse'];
      /** @description `partition_id` is not an integer (400). */
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster (404); 40401 topic not found; 40402 partition not found. */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
    };
  };
  listPartitionOffsets: {
    parameters: {
      query?: {
        /** @description Which offsets to return; only `earliest_and_latest` is defined (as in Confluent's spec). */
        offset_type?: components['parameters']['OffsetType'];
      };
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /** @description The partition id. */
        partition_id: components['parameters']['PartitionId'];
        /** @description The topic name. */
        topic_name: components['parameters']['TopicName'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['ListPartitionOffsetsResponse'];
      /** @description `partition_id` is not an integer, or `offset_type` is not `earliest_and_latest` (400). */
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster (404); 40401 topic not found; 40402 partition not found. */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  getPartitionReassignment: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /** @description The partition id. */
        partition_id: components['parameters']['PartitionId'];
        /** @description The topic name. */
        topic_name: components['parameters']['TopicName'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['GetReassignmentResponse'];
      /** @description `partition_id` is not an integer (400). */
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster, or no reassignment of the partition in progress (404); 40401 topic not found; 40402 partition not found. */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
    };
  };
  readRecords: {
    parameters: {
      query?: {
        /** @description How keys and values are encoded in the JSON answer: `binary` as base64 strings, `json` as JSON values (the bytes parsed as JSON), `string` as UTF-8 strings; `avro`, `jsonschema` and `protobuf` decode keys and values stored in Confluent's wire format with the registry's schemas (Avro's JSON encoding, the JSON document, proto3 JSON), each record then carrying `key_schema_id` and `value_schema_id`, and `key_error` / `value_error` for a key or value that cannot be decoded (not in the wire format, schema not found, of another type or not matching). A null key or value stays null. */
        format?: components['parameters']['RecordFormat'];
        /** @description Read from the log start (`earliest`) or from the high watermark (`latest`, new records only). */
        from?: components['parameters']['ReadFrom'];
        /** @description Upper bound on the size of the answer in bytes (at least one record is returned if any exists). */
        max_bytes?: components['parameters']['MaxBytes'];
        /** @description Upper bound on the number of records returned. */
        max_records?: components['parameters']['MaxRecords'];
        /** @description Read from this offset. */
        offset?: components['parameters']['ReadOffset'];
        /** @description Read from the first record whose timestamp is at or after this time, given as epoch milliseconds or as an RFC 3339 date-time. */
        timestamp?: components['parameters']['ReadTimestamp'];
        /** @description How long to wait for records when there are none yet (long poll), in milliseconds. */
        wait_ms?: components['parameters']['WaitMs'];
      };
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /** @description The partition id. */
        partition_id: components['parameters']['PartitionId'];
        /** @description The topic name. */
        topic_name: components['parameters']['TopicName'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['ReadRecordsResponse'];
      /** @description A malformed or negative query parameter, more than one of `offset`/`timestamp`/`from`, an unknown `format` (400); 40002 invalid request. */
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster (404); 40401 topic not found; 40402 partition not found; 40404 leader not available. */
      404: components['responses']['NotFound'];
      /** @description `Accept` is neither `application/json` nor `application/vnd.brook.batches` (406). */
      406: components['responses']['NotAcceptable'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  listReplicas: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /** @description The partition id. */
        partition_id: components['parameters']['PartitionId'];
        /** @description The topic name. */
        topic_name: components['parameters']['TopicName'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['ListReplicasResponse'];
      /** @description `partition_id` is not an integer (400). */
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster (404); 40401 topic not found; 40402 partition not found. */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
    };
  };
  getReplica: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The broker id. */
        broker_id: components['parameters']['BrokerId'];
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /** @description The partition id. */
        partition_id: components['parameters']['PartitionId'];
        /** @description The topic name. */
        topic_name: components['parameters']['TopicName'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['GetReplicaResponse'];
      /** @description `partition_id` or `broker_id` is not an integer (400). */
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster (404); 40401 topic not found; 40402 partition not found; the broker holds no replica of the partition (404). */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
    };
  };
  produceRecord: {
    parameters: {
      query?: {
        /** @description When to acknowledge: `0` without waiting for the write (the reported offset is then -1, as Kafka's producer reports it), `1` once the leader has written the records, `all` once every in-sync replica has them. */
        acks?: components['parameters']['Acks'];
      };
      header?: {
        /** @description The producer epoch that came with `Brook-Producer-Id`. */
        'Brook-Producer-Epoch'?: components['parameters']['BrookProducerEpoch'];
        /** @description An idempotent producer's id, from `POST /v3/clusters/{cluster_id}/producers`. With `Brook-Producer-Epoch` and `Brook-Producer-Sequence` (all three or none), the partition leader dedupes retries: a request whose records it already appended (one of the producer's last five batches in that partition) is answered with the original offsets and appends nothing, through restarts and leader changes. Record *i* of the request (in streaming mode, record *i* of the stream, from 0) has sequence `Brook-Producer-Sequence + i`. Every record must name its partition (the route's, or `partition_id`/`partition`) or have a key, else 42206. When all records go to one named partition, Kafka's rule holds: the next request to that partition starts at the next sequence, any other is 40908. Records spread over partitions by key may leave gaps in each partition's sequence, which must still only move forward. An older epoch than the partition's is 40909 (fenced); a new epoch starts at sequence 0. A producer silent for `BROOK_PRODUCER_ID_EXPIRATION_MS` (default 24 h), or whose last batch retention deleted, is forgotten and may start again at any sequence. */
        'Brook-Producer-Id'?: components['parameters']['BrookProducerId'];
        /** @description The sequence of the request's first record (see `Brook-Producer-Id`). */
        'Brook-Producer-Sequence'?: components['parameters']['BrookProducerSequence'];
        /** @description Makes a produce request safe to retry: a retry with the same key, by the same principal, to the same topic, within `BROOK_IDEMPOTENCY_RETENTION_MS` (default 24 h) is answered with the original status and body, rebuilt from the outcome the partition leaders kept (offsets, timestamps), with `Idempotent-Replayed: true`, and appends nothing, through whichever broker of the cluster it comes, after restarts and leader failover. The same key with another body is 422 (42291); a key whose first request is not answered yet, or whose records the in-sync replicas do not all hold yet, is 409 (40906): retry later. Only final outcomes are kept: records of a partition that failed (40404, 50003, an unknown outcome) are appended by the retry, and the partitions that did append answer their original offsets (no `Idempotent-Replayed` then, since the retry appended something). Records without a key or partition go to the partition the key names. In streaming mode each record of the stream is keyed by its position (from 0); the head carries no `Idempotent-Replayed` (it is written before the records are read): a replayed record's delivery report carries `replayed: true` instead. Not with the `Brook-Producer-*` headers (400). Each partition remembers at most `BROOK_PRODUCER_IDS_PER_PARTITION_MAX` keys and producer ids; beyond that the least recently used is forgotten. Every request with a key writes its key's home partition (where its keyless records go) first, with a marker there (an empty batch: one offset, no record) when none of its records go there, so another body is refused before anything is appended, whatever partitions its records go to; adding partitions to the topic moves the home partition. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey'];
      };
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /** @description The topic name. */
        topic_name: components['parameters']['TopicName'];
      };
      cookie?: never;
    };
    requestBody: components['requestBodies']['ProduceRequest'];
    responses: {
      200: components['responses']['ProduceResponse'];
      /** @description Malformed JSON or a body that is not valid UTF-8 (400); 40002 invalid request. */
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster (404); 40401 topic not found; 40402 partition not found; 40403 unknown topic or partition; 40404 leader not available. */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      /** @description With `Idempotency-Key`: 40906 the first request with this key is still in flight (retry later). With `Brook-Producer-*` headers: 40908 the sequence does not follow the producer's last in the partition (OUT_OF_ORDER_SEQUENCE_NUMBER); 40909 the producer epoch is older than the partition's (fenced). Nothing was appended. */
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      /** @description 42291 the `Idempotency-Key` was used with another request body (nothing appended). 42206 invalid payload: an empty body ("Payload error. Request body is empty. Data is required.", also for a streamed body without a record), a BINARY `data` or header value that is not base64, an unknown `type`, a field of the wrong type, a negative `partition_id`, a `Brook-Producer-Sequence` request whose record has neither `partition_id` nor a key. */
      422: components['responses']['UnprocessableEntity'];
      429: components['responses']['TooManyRequests'];
      /** @description 50002 Kafka error; 50003 retriable error (including not enough in-sync replicas for `acks=all`). */
      500: components['responses']['ServerError'];
      503: components['responses']['ProduceUnavailable'];
    };
  };
  produceRecordsBatch: {
    parameters: {
      query?: {
        /** @description When to acknowledge: `0` without waiting for the write (the reported offset is then -1, as Kafka's producer reports it), `1` once the leader has written the records, `all` once every in-sync replica has them. */
        acks?: components['parameters']['Acks'];
      };
      header?: {
        /** @description The producer epoch that came with `Brook-Producer-Id`. */
        'Brook-Producer-Epoch'?: components['parameters']['BrookProducerEpoch'];
        /** @description An idempotent producer's id, from `POST /v3/clusters/{cluster_id}/producers`. With `Brook-Producer-Epoch` and `Brook-Producer-Sequence` (all three or none), the partition leader dedupes retries: a request whose records it already appended (one of the producer's last five batches in that partition) is answered with the original offsets and appends nothing, through restarts and leader changes. Record *i* of the request (in streaming mode, record *i* of the stream, from 0) has sequence `Brook-Producer-Sequence + i`. Every record must name its partition (the route's, or `partition_id`/`partition`) or have a key, else 42206. When all records go to one named partition, Kafka's rule holds: the next request to that partition starts at the next sequence, any other is 40908. Records spread over partitions by key may leave gaps in each partition's sequence, which must still only move forward. An older epoch than the partition's is 40909 (fenced); a new epoch starts at sequence 0. A producer silent for `BROOK_PRODUCER_ID_EXPIRATION_MS` (default 24 h), or whose last batch retention deleted, is forgotten and may start again at any sequence. */
        'Brook-Producer-Id'?: components['parameters']['BrookProducerId'];
        /** @description The sequence of the request's first record (see `Brook-Producer-Id`). */
        'Brook-Producer-Sequence'?: components['parameters']['BrookProducerSequence'];
        /** @description Makes a produce request safe to retry: a retry with the same key, by the same principal, to the same topic, within `BROOK_IDEMPOTENCY_RETENTION_MS` (default 24 h) is answered with the original status and body, rebuilt from the outcome the partition leaders kept (offsets, timestamps), with `Idempotent-Replayed: true`, and appends nothing, through whichever broker of the cluster it comes, after restarts and leader failover. The same key with another body is 422 (42291); a key whose first request is not answered yet, or whose records the in-sync replicas do not all hold yet, is 409 (40906): retry later. Only final outcomes are kept: records of a partition that failed (40404, 50003, an unknown outcome) are appended by the retry, and the partitions that did append answer their original offsets (no `Idempotent-Replayed` then, since the retry appended something). Records without a key or partition go to the partition the key names. In streaming mode each record of the stream is keyed by its position (from 0); the head carries no `Idempotent-Replayed` (it is written before the records are read): a replayed record's delivery report carries `replayed: true` instead. Not with the `Brook-Producer-*` headers (400). Each partition remembers at most `BROOK_PRODUCER_IDS_PER_PARTITION_MAX` keys and producer ids; beyond that the least recently used is forgotten. Every request with a key writes its key's home partition (where its keyless records go) first, with a marker there (an empty batch: one offset, no record) when none of its records go there, so another body is refused before anything is appended, whatever partitions its records go to; adding partitions to the topic moves the home partition. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey'];
      };
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /** @description The topic name. */
        topic_name: components['parameters']['TopicName'];
      };
      cookie?: never;
    };
    requestBody: components['requestBodies']['ProduceBatchRequest'];
    responses: {
      207: components['responses']['ProduceBatchResponse'];
      /** @description Malformed JSON (400); 40002 invalid request. */
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster (404); 40401 topic not found. */
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      /** @description With `Idempotency-Key`: 40906 the first request with this key is still in flight (retry later); nothing was appended. */
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      /** @description 42291 the `Idempotency-Key` was used with another request body (nothing appended). 42206 invalid payload (empty body, or a `Brook-Producer-Sequence` request with a record that has neither `partition_id` nor a key); 42208 invalid batch (empty batch, too many entries, entry ids not distinct or not valid strings). A record the producer state refuses is in `failures` with 40908 or 40909 (see `Brook-Producer-Id`). */
      422: components['responses']['UnprocessableEntity'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
      503: components['responses']['ProduceUnavailable'];
    };
  };
  streamRecords: {
    parameters: {
      query?: {
        /** @description How keys and values are encoded in the JSON answer: `binary` as base64 strings, `json` as JSON values (the bytes parsed as JSON), `string` as UTF-8 strings; `avro`, `jsonschema` and `protobuf` decode keys and values stored in Confluent's wire format with the registry's schemas (Avro's JSON encoding, the JSON document, proto3 JSON), each record then carrying `key_schema_id` and `value_schema_id`, and `key_error` / `value_error` for a key or value that cannot be decoded (not in the wire format, schema not found, of another type or not matching). A null key or value stays null. */
        format?: components['parameters']['RecordFormat'];
        /** @description Start at the log start (`earliest`) or at the high watermark (`latest`, new records only). */
        from?: 'earliest' | 'latest';
        /** @description Stream as a member of this consumer group (1 to 255 characters). */
        group?: string;
      };
      header?: {
        /** @description The position(s) to resume after, `partition:offset[,partition:offset...]`. */
        'Last-Event-ID'?: string;
      };
      path: {
        /** @description The cluster id. */
        cluster_id: components['parameters']['ClusterId'];
        /** @description The topic name. */
        topic_name: components['parameters']['TopicName'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The event stream; it stays open until the client closes it. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/event-stream': string;
        };
      };
      /** @description An unknown `from` or `format`, a malformed `Last-Event-ID` (400); a position outside the partition, an empty or too long `group` (40002). */
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description Unknown cluster (404); 40401 topic not found; 40402 partition (named in `Last-Event-ID`) not found; 40404 leader not available. */
      404: components['responses']['NotFound'];
      /** @description 40907 the `group` is in use by Kafka clients (Kafka's group protocol) now. */
      409: components['responses']['Conflict'];
      /** @description 42901 too many open SSE streams on this broker (`BROOK_SSE_STREAMS_MAX`). */
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
    };
  };
}
