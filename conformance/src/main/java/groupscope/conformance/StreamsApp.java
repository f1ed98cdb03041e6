package groupscope.conformance;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Materialized;

import java.util.Properties;

/**
 * One Kafka Streams instance for {@code run-streams.sh} (driven by {@link StreamsRunner}): a
 * stateful word count, {@code words} → groupBy(value) → count, so two subtopologies: 0 reads
 * {@code words} and writes the repartition topic, 1 reads it and counts into the store
 * {@code counts} (its changelog). Runs until it is killed or its stdin closes.
 *
 * usage: StreamsApp BOOTSTRAP GROUP_PROTOCOL CLIENT_ID STATE_DIR
 *
 * stdout: one JSON line per KafkaStreams state change, with the wall-clock time.
 */
public final class StreamsApp {
    public static final String APPLICATION_ID = "wordcount";
    public static final String INPUT = "words";

    public static void main(String[] args) throws Exception {
        Properties p = new Properties();
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, APPLICATION_ID);
        p.put(StreamsConfig.GROUP_PROTOCOL_CONFIG, args[1]);
        p.put(StreamsConfig.CLIENT_ID_CONFIG, args[2]);
        p.put(StreamsConfig.STATE_DIR_CONFIG, args[3]);
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 2);
        // Every update reaches the changelog (no record cache), so a new owner has a lag to
        // restore; with a small acceptable lag the classic HighAvailabilityTaskAssignor places
        // warm-ups and schedules probing rebalances at the shortest interval Kafka allows.
        p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        p.put(StreamsConfig.ACCEPTABLE_RECOVERY_LAG_CONFIG, 100L);
        p.put(StreamsConfig.PROBING_REBALANCE_INTERVAL_MS_CONFIG, 60_000L);
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 5_000L);

        StreamsBuilder b = new StreamsBuilder();
        b.stream(INPUT, Consumed.with(Serdes.String(), Serdes.String()))
                .groupBy((k, v) -> v, Grouped.with(Serdes.String(), Serdes.String()))
                .count(Materialized.as("counts"));
        KafkaStreams streams = new KafkaStreams(b.build(), p);
        streams.setStateListener((to, from) -> System.out.println(
                "{\"ev\":\"state\",\"wall\":" + System.currentTimeMillis() + ",\"from\":\"" + from + "\",\"to\":\"" + to + "\"}"));
        Runtime.getRuntime().addShutdownHook(new Thread(streams::close));
        streams.start();
        // The runner ends an instance with SIGKILL (a crash) or by closing stdin (a clean close).
        while (System.in.read() >= 0) {
            // keep reading
        }
        streams.close();
        System.exit(0);
    }
}
