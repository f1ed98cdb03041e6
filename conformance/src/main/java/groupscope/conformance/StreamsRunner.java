package groupscope.conformance;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.StreamsGroupDescription;
import org.apache.kafka.clients.admin.StreamsGroupMemberAssignment;
import org.apache.kafka.clients.admin.StreamsGroupMemberDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A Kafka Streams application on a real Kafka 4.4 broker ({@link Runner}'s broker): instances
 * i1, i2, i3 ({@link StreamsApp}, 2 stream threads each) start, i2 is killed with SIGKILL,
 * and after its session timeout a new instance i4 starts. Writes the logs of the broker's
 * group coordinator and of each instance, and ground-truth.json (what the harness did and
 * what Admin showed of the group whenever it changed), into WORKDIR.
 *
 * usage: StreamsRunner classic|streams WORKDIR [KILL_MS START_MS UNTIL_MS]
 */
public final class StreamsRunner {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String protocol;
    private final Path work;
    private final Runner broker;
    private final ObjectNode truth = JSON.createObjectNode();
    private final ArrayNode harness = truth.putArray("harness");
    private final ArrayNode states = truth.putArray("states");
    private final ArrayNode admin = truth.putArray("admin");
    private final Map<String, Process> instances = new ConcurrentHashMap<>();
    private long t0;

    private StreamsRunner(String protocol, Path work) {
        this.protocol = protocol;
        this.work = work;
        this.broker = new Runner(JSON.createObjectNode().set("scenario", JSON.createObjectNode()), work);
    }

    private synchronized void note(String what, String instance) {
        ObjectNode o = harness.addObject();
        o.put("t", System.currentTimeMillis() - t0);
        o.put("wall", System.currentTimeMillis());
        o.put("what", what);
        if (instance != null) o.put("instance", instance);
        System.err.println("[streams-runner " + (System.currentTimeMillis() - t0) + "] " + what + (instance == null ? "" : " " + instance));
    }

    private void start(String name) throws Exception {
        Path log4j = work.resolve("log4j2-" + name + ".xml");
        Files.writeString(log4j, Runner.log4jConfig(work.resolve(name + ".log"), new String[] {
            "org.apache.kafka.streams", "org.apache.kafka.clients.consumer.internals"}));
        Path state = work.resolve("state-" + name);
        Process p = broker.java("-Xmx192m", log4j.toString(), List.of(StreamsApp.class.getName(), broker.bootstrap(),
                protocol, name, state.toString()), null);
        instances.put(name, p);
        note("start", name);
        Runner.readJsonLines(p, name, o -> {
            o.put("instance", name);
            o.put("t", o.get("wall").asLong() - t0);
            synchronized (this) {
                states.add(o);
            }
        });
    }

    private void kill(String name) {
        // Process.destroyForcibly is SIGKILL on Linux: no LeaveGroup, no close.
        instances.remove(name).destroyForcibly();
        note("kill -9", name);
    }

    /** The group as Admin describes it, reduced to what the log explainer should reconstruct. */
    private ObjectNode describe(Admin a) throws Exception {
        ObjectNode o = JSON.createObjectNode();
        Map<String, String> members = new TreeMap<>();
        if (protocol.equals("streams")) {
            StreamsGroupDescription d = a.describeStreamsGroups(List.of(StreamsApp.APPLICATION_ID)).all()
                    .get(10, TimeUnit.SECONDS).get(StreamsApp.APPLICATION_ID);
            o.put("state", d.groupState().toString());
            o.put("groupEpoch", d.groupEpoch());
            o.put("targetAssignmentEpoch", d.targetAssignmentEpoch());
            for (StreamsGroupMemberDescription m : d.members()) {
                List<String> tasks = new ArrayList<>();
                for (StreamsGroupMemberAssignment.TaskIds ids : m.assignment().activeTasks()) {
                    for (int part : ids.partitions()) tasks.add(ids.subtopologyId() + "_" + part);
                }
                tasks.sort(null);
                members.put(m.clientId(), "epoch " + m.memberEpoch() + " process " + m.processId() + " active " + tasks);
            }
        } else {
            ConsumerGroupDescription d = a.describeConsumerGroups(List.of(StreamsApp.APPLICATION_ID)).all()
                    .get(10, TimeUnit.SECONDS).get(StreamsApp.APPLICATION_ID);
            o.put("state", d.groupState().toString());
            for (MemberDescription m : d.members()) {
                members.put(m.clientId(), m.assignment().topicPartitions().toString());
            }
        }
        ObjectNode ms = o.putObject("members");
        members.forEach(ms::put);
        return o;
    }

    private void run(long killAt, long startAt, long until) throws Exception {
        broker.startBroker();
        try (Admin a = broker.admin()) {
            a.createTopics(List.of(new NewTopic(StreamsApp.INPUT, 4, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        Properties pp = new Properties();
        pp.put("bootstrap.servers", broker.bootstrap());
        pp.put("linger.ms", "5");
        t0 = System.currentTimeMillis();
        note("broker up, topic words (4 partitions) created; group.protocol=" + protocol, null);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(pp, new StringSerializer(), new StringSerializer());
             Admin a = broker.admin()) {
            String[] words = {"kafka", "streams", "group", "task", "thread", "epoch", "rebalance", "standby",
                "restore", "changelog", "repartition", "member", "leader", "assignor", "probing", "warmup"};
            start("i1");
            start("i2");
            start("i3");
            boolean killed = false;
            boolean started = false;
            String last = "";
            long n = 0;
            while (System.currentTimeMillis() - t0 < until) {
                long now = System.currentTimeMillis() - t0;
                if (!killed && now >= killAt) {
                    kill("i2");
                    killed = true;
                }
                if (!started && now >= startAt) {
                    start("i4");
                    started = true;
                }
                // 40 records a second over 16 words
                for (int i = 0; i < 10; i++, n++) {
                    producer.send(new ProducerRecord<>(StreamsApp.INPUT, "k" + (n % 20), words[(int) (n * 7 % words.length)]));
                }
                try {
                    ObjectNode d = describe(a);
                    String s = d.toString();
                    if (!s.equals(last)) {
                        last = s;
                        d.put("t", System.currentTimeMillis() - t0);
                        synchronized (this) {
                            admin.add(d);
                        }
                    }
                } catch (Exception e) {
                    // the group does not exist yet
                }
                Thread.sleep(250);
            }
            note("end", null);
        } finally {
            for (Process p : instances.values()) p.destroyForcibly();
            broker.stopAll();
        }
        truth.put("protocol", protocol);
        Files.writeString(work.resolve("ground-truth.json"), JSON.writerWithDefaultPrettyPrinter().writeValueAsString(truth));
    }

    public static void main(String[] args) throws Exception {
        Path work = Path.of(args[1]);
        Files.createDirectories(work);
        long killAt = args.length > 2 ? Long.parseLong(args[2]) : 30_000;
        long startAt = args.length > 3 ? Long.parseLong(args[3]) : 90_000;
        long until = args.length > 4 ? Long.parseLong(args[4]) : 180_000;
        new StreamsRunner(args[0], work).run(killAt, startAt, until);
        System.exit(0);
    }
}
