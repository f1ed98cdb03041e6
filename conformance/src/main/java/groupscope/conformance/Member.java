package groupscope.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.*;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * One consumer process of a scenario. Its consumer is built at launch (so class loading is
 * done before the scenario's clock starts); it subscribes on "start". Commands arrive on
 * standard input, one a line; what it observes goes to standard output as JSON lines:
 * rebalance callbacks with the generation (classic) or member epoch (consumer protocol),
 * exceptions from poll() and commits, and a final report.
 *
 *   start T0      subscribe and run the poll loop; times are ms since the epoch-ms T0
 *   close [OP]    close() or close(CloseOptions OP) and exit
 *   subscribe a,b subscribe() again with these topics
 *   slow MS       processing takes MS ms per record from now on
 *   report        print the final assignment, generation and member id
 */
public final class Member {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final PrintStream OUT = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true, StandardCharsets.UTF_8);

    private final String name;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final ConcurrentLinkedQueue<String> commands = new ConcurrentLinkedQueue<>();
    private volatile long t0 = -1;
    private List<String> topics;
    private double msPerRecord;
    private final String commitMode;
    private final boolean autoCommit;
    private volatile boolean fatal = false;
    /** What the member owns as its callbacks told it, and its last generation and member id:
     * the final report reads these, so it is answered even while the poll thread is busy. */
    private final Set<String> owned = Collections.synchronizedSet(new TreeSet<>(Member::comparePartition));
    private volatile int lastGeneration = -1;
    private volatile String lastMemberId = "";

    private Member(JsonNode spec) {
        name = spec.get("name").asText();
        Properties p = new Properties();
        spec.get("props").fields().forEachRemaining(e -> p.put(e.getKey(), e.getValue().asText()));
        p.put("key.deserializer", ByteArrayDeserializer.class.getName());
        p.put("value.deserializer", ByteArrayDeserializer.class.getName());
        autoCommit = !"false".equals(p.getProperty("enable.auto.commit", "true"));
        consumer = new KafkaConsumer<>(p);
        topics = new ArrayList<>();
        spec.get("topics").forEach(t -> topics.add(t.asText()));
        msPerRecord = spec.path("msPerRecord").asDouble(5.0);
        commitMode = spec.path("commitMode").asText("none");
    }

    private long now() {
        return t0 < 0 ? -1 : System.currentTimeMillis() - t0;
    }

    private void emit(String ev, ObjectNode extra) {
        ObjectNode o = extra == null ? JSON.createObjectNode() : extra;
        o.put("t", now());
        o.put("member", name);
        o.put("ev", ev);
        synchronized (OUT) {
            OUT.println(o.toString());
        }
    }

    private static ArrayNode parts(Collection<TopicPartition> ps) {
        ArrayNode a = JSON.createArrayNode();
        ps.stream().map(tp -> tp.topic() + "-" + tp.partition()).sorted(Member::comparePartition).forEach(a::add);
        return a;
    }

    static int comparePartition(String a, String b) {
        int ia = a.lastIndexOf('-'), ib = b.lastIndexOf('-');
        int c = a.substring(0, ia).compareTo(b.substring(0, ib));
        return c != 0 ? c : Integer.compare(Integer.parseInt(a.substring(ia + 1)), Integer.parseInt(b.substring(ib + 1)));
    }

    private ObjectNode groupInfo() {
        ObjectNode o = JSON.createObjectNode();
        try {
            var m = consumer.groupMetadata();
            lastGeneration = m.generationId();
            lastMemberId = m.memberId();
            o.put("generation", m.generationId());
            o.put("memberId", m.memberId());
        } catch (RuntimeException e) {
            o.put("generation", -1);
        }
        return o;
    }

    private final ConsumerRebalanceListener listener = new ConsumerRebalanceListener() {
        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> ps) {
            ObjectNode o = groupInfo();
            o.set("partitions", parts(ps));
            parts(ps).forEach(x -> owned.remove(x.asText()));
            emit("revoked", o);
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> ps) {
            ObjectNode o = groupInfo();
            o.set("partitions", parts(ps));
            o.set("owned", parts(consumer.assignment()));
            parts(ps).forEach(x -> owned.add(x.asText()));
            emit("assigned", o);
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> ps) {
            ObjectNode o = groupInfo();
            o.set("partitions", parts(ps));
            parts(ps).forEach(x -> owned.remove(x.asText()));
            emit("lost", o);
        }
    };

    private void error(String where, Throwable e) {
        ObjectNode o = groupInfo();
        o.put("where", where);
        o.put("kind", e.getClass().getSimpleName());
        o.put("message", String.valueOf(e.getMessage()));
        emit("error", o);
    }

    /** Exceptions after which the application keeps polling; anything else ends the poll loop. */
    private static boolean retriable(Throwable e) {
        String k = e.getClass().getSimpleName();
        return k.equals("CommitFailedException") || k.equals("RebalanceInProgressException")
                || k.equals("RetriableCommitFailedException") || k.equals("TimeoutException")
                || e instanceof org.apache.kafka.common.errors.RetriableException;
    }

    private Map<TopicPartition, OffsetAndMetadata> positions() {
        Map<TopicPartition, OffsetAndMetadata> m = new HashMap<>();
        for (TopicPartition tp : consumer.assignment()) {
            m.put(tp, new OffsetAndMetadata(consumer.position(tp)));
        }
        return m;
    }

    private void commit() {
        try {
            switch (commitMode) {
                case "sync" -> consumer.commitSync();
                case "async" -> consumer.commitAsync((offsets, e) -> { if (e != null) error("commitAsync", e); });
                default -> { }
            }
        } catch (WakeupException e) {
            throw e;
        } catch (RuntimeException e) {
            error("commitSync", e);
            if (!retriable(e)) fatal = true;
        }
    }

    /** Returns false when the process should end. */
    private boolean command(String c) {
        String[] w = c.trim().split("\\s+", 2);
        switch (w[0]) {
            case "close" -> {
                emit("closing", null);
                try {
                    if (w.length > 1) {
                        consumer.close(CloseOptions.groupMembershipOperation(
                                CloseOptions.GroupMembershipOperation.valueOf(w[1])));
                    } else {
                        consumer.close();
                    }
                } catch (RuntimeException e) {
                    error("close", e);
                }
                emit("closed", null);
                return false;
            }
            case "subscribe" -> {
                topics = Arrays.asList(w[1].split(","));
                consumer.subscribe(topics, listener);
                ObjectNode o = JSON.createObjectNode();
                o.put("topics", String.join(",", topics));
                emit("subscribed", o);
            }
            case "slow" -> msPerRecord = Double.parseDouble(w[1]);
            default -> emit("unknown-command", null);
        }
        return true;
    }

    /** Called from the command reader's thread: it touches no consumer method. */
    private void report() {
        ObjectNode o = JSON.createObjectNode();
        o.put("generation", lastGeneration);
        o.put("memberId", lastMemberId);
        ArrayNode a = o.putArray("owned");
        synchronized (owned) {
            owned.forEach(a::add);
        }
        o.put("fatal", fatal);
        emit("final", o);
    }

    private void run() throws Exception {
        consumer.subscribe(topics, listener);
        emit("started", null);
        double owed = 0;
        while (true) {
            String c;
            while ((c = commands.poll()) != null) {
                if (!command(c)) return;
            }
            if (fatal) {
                Thread.sleep(50);
                continue;
            }
            ConsumerRecords<byte[], byte[]> records;
            try {
                records = consumer.poll(Duration.ofMillis(100));
            } catch (RuntimeException e) {
                error("poll", e);
                if (!retriable(e)) fatal = true;
                continue;
            }
            if (records.isEmpty()) continue;
            if (commitMode.equals("before")) {
                try {
                    consumer.commitAsync(positions(), (offsets, e) -> { if (e != null) error("commitAsync", e); });
                } catch (RuntimeException e) {
                    error("commitAsync", e);
                }
            }
            owed += records.count() * msPerRecord;
            long sleep = (long) owed;
            owed -= sleep;
            // Processing: the poll thread is busy; commands wait for the next loop.
            long end = System.currentTimeMillis() + sleep;
            while (System.currentTimeMillis() < end) {
                Thread.sleep(Math.min(20, Math.max(1, end - System.currentTimeMillis())));
            }
            commit();
        }
    }

    public static void main(String[] args) throws Exception {
        JsonNode spec = JSON.readTree(Files.readString(Path.of(args[0])));
        Member m = new Member(spec);
        // Warm-up before the scenario's clock starts: connect and load the client's classes.
        try {
            m.consumer.listTopics(Duration.ofSeconds(30));
        } catch (RuntimeException e) {
            // the first poll() will try again
        }
        m.emit("ready", null);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.startsWith("start ")) {
                m.t0 = Long.parseLong(line.substring(6).trim());
                break;
            }
            if (line.startsWith("exit")) System.exit(0);
        }
        Thread reader = new Thread(() -> {
            try {
                String l;
                while ((l = in.readLine()) != null) {
                    if (l.trim().equals("report")) {
                        m.report();
                    } else {
                        m.commands.add(l);
                    }
                }
            } catch (Exception e) {
                // the harness went away
            }
            m.commands.add("close");
        }, "commands");
        reader.setDaemon(true);
        reader.start();
        m.run();
        OUT.flush();
        System.exit(0);
    }
}
