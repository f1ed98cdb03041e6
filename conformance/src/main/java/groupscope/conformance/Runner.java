package groupscope.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.*;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * Runs one conformance scenario on a real Kafka 4.4 broker (a child JVM, KRaft, one node,
 * loopback) with real consumers (one child JVM each, see {@link Member}) and writes what
 * happened as JSON.
 *
 * usage: Runner SCENARIO.json OUT.json WORKDIR
 *
 * SCENARIO.json is the harness's file: {"until": ms, "scenario": {GroupScope scenario}}.
 * The scenario is read with GroupScope's field names; faults this harness cannot perform
 * on one broker (broker and network faults) are refused.
 */
public final class Runner {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final JsonNode scenario;
    private final long until;
    private final Path work;
    private final String cp;
    private final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    private final List<ObjectNode> events = new CopyOnWriteArrayList<>();
    private final List<ObjectNode> admin = new CopyOnWriteArrayList<>();
    private final List<ObjectNode> harness = new CopyOnWriteArrayList<>();
    private final Map<Integer, Deque<Proc>> standby = new ConcurrentHashMap<>();
    private final Map<Integer, Proc> live = new ConcurrentHashMap<>();
    private final Map<String, Integer> partitions = new ConcurrentHashMap<>();
    private Process broker;
    private int port;
    private long t0;

    private final class Proc {
        final int index;
        final String name;
        final Process process;
        final Writer in;
        volatile boolean ready;

        Proc(int index, Process p) {
            this.index = index;
            this.name = "c" + index;
            this.process = p;
            this.in = new OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8);
            readJsonLines(p, name, o -> {
                if (o.path("ev").asText().equals("ready")) {
                    ready = true;
                } else {
                    events.add(o);
                }
            });
        }

        void send(String command) {
            try {
                in.write(command + "\n");
                in.flush();
            } catch (Exception e) {
                note("cannot send '" + command + "' to " + name + ": " + e.getMessage());
            }
        }
    }

    /** Hands each JSON line a child process prints on stdout to {@code sink}, on a daemon thread. */
    static void readJsonLines(Process p, String name, java.util.function.Consumer<ObjectNode> sink) {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String l;
                while ((l = r.readLine()) != null) {
                    if (l.startsWith("{")) sink.accept((ObjectNode) JSON.readTree(l));
                }
            } catch (Exception e) {
                // the process ended
            }
        }, "out-" + name);
        t.setDaemon(true);
        t.start();
    }

    Runner(JsonNode file, Path work) {
        this.scenario = file.get("scenario");
        this.until = file.path("until").asLong(60000);
        this.work = work;
        this.cp = System.getProperty("java.class.path");
    }

    private long now() {
        return System.currentTimeMillis() - t0;
    }

    private void note(String what) {
        ObjectNode o = JSON.createObjectNode();
        o.put("t", t0 == 0 ? -1 : now());
        o.put("what", what);
        harness.add(o);
        System.err.println("[runner " + (t0 == 0 ? "-" : now()) + "] " + what);
    }

    private static int freePort() throws Exception {
        for (int i = 0; i < 200; i++) {
            int p = 19092 + new Random().nextInt(7000) * 2;
            try (ServerSocket a = new ServerSocket(p); ServerSocket b = new ServerSocket(p + 1)) {
                return p;
            } catch (Exception e) {
                // taken
            }
        }
        throw new IllegalStateException("no free port pair in 19092..33092");
    }

    String bootstrap() {
        return "127.0.0.1:" + port;
    }

    Process java(String heap, String log4j, List<String> args, Path stdout) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(java, heap, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Dlog4j2.configurationFile=" + log4j, "-cp", cp));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.redirectErrorStream(false);
        if (stdout != null) pb.redirectOutput(stdout.toFile());
        pb.redirectError(work.resolve("stderr-" + args.get(0).replaceAll(".*\\.", "") + "-" + System.nanoTime() + ".txt").toFile());
        return pb.start();
    }

    void startBroker() throws Exception {
        port = freePort();
        Path props = work.resolve("server.properties");
        Properties p = new Properties();
        p.put("process.roles", "broker,controller");
        p.put("node.id", "1");
        p.put("controller.quorum.voters", "1@127.0.0.1:" + (port + 1));
        p.put("listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + (port + 1));
        p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port);
        p.put("controller.listener.names", "CONTROLLER");
        p.put("inter.broker.listener.name", "PLAINTEXT");
        p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.put("log.dirs", work.resolve("kafka-data").toString());
        p.put("offsets.topic.num.partitions", "1");
        p.put("offsets.topic.replication.factor", "1");
        p.put("transaction.state.log.replication.factor", "1");
        p.put("transaction.state.log.min.isr", "1");
        p.put("share.coordinator.state.topic.replication.factor", "1");
        p.put("share.coordinator.state.topic.min.isr", "1");
        p.put("auto.create.topics.enable", "false");
        p.put("num.network.threads", "2");
        p.put("num.io.threads", "2");
        p.put("background.threads", "2");
        p.put("log.cleaner.enable", "false");
        Iterator<Map.Entry<String, JsonNode>> it = scenario.path("broker").fields();
        while (it.hasNext()) {
            var e = it.next();
            if (e.getKey().startsWith("simulated.") || e.getKey().equals("broker.session.timeout.ms")
                    || e.getKey().equals("log.cleaner.enable") || e.getKey().startsWith("offsets.topic.")) continue;
            JsonNode v = e.getValue();
            String s;
            if (v.isArray()) {
                List<String> l = new ArrayList<>();
                v.forEach(x -> l.add(x.asText()));
                s = String.join(",", l);
            } else {
                s = v.asText();
            }
            p.put(e.getKey(), s);
        }
        try (Writer w = Files.newBufferedWriter(props)) {
            p.store(w, "GroupScope conformance broker");
        }
        Path log4j = work.resolve("broker-log4j2.xml");
        Files.writeString(log4j, log4jConfig(work.resolve("broker.log"), new String[] {
            "org.apache.kafka.coordinator.group", "org.apache.kafka.coordinator.common.runtime"}));
        String clusterId = "gsConformance" + Long.toString(System.nanoTime() % 1_000_000_000L, 36);
        clusterId = (clusterId + "AAAAAAAAAAAAAAAAAAAAAA").substring(0, 22);
        Process fmt = java("-Xmx256m", log4j.toString(), List.of("kafka.tools.StorageTool", "format", "-t", clusterId,
                "-c", props.toString()), work.resolve("format.txt"));
        if (!fmt.waitFor(120, TimeUnit.SECONDS) || fmt.exitValue() != 0) {
            throw new IllegalStateException("kafka-storage format failed: " + Files.readString(work.resolve("format.txt")));
        }
        broker = java("-Xmx512m", log4j.toString(), List.of("kafka.Kafka", props.toString()), work.resolve("broker-stdout.txt"));
        Runtime.getRuntime().addShutdownHook(new Thread(this::stopAll));
        long deadline = System.currentTimeMillis() + 120_000;
        try (Admin a = admin()) {
            while (true) {
                try {
                    a.describeCluster().nodes().get(5, TimeUnit.SECONDS);
                    break;
                } catch (Exception e) {
                    if (!broker.isAlive()) throw new IllegalStateException("the broker died; see " + work);
                    if (System.currentTimeMillis() > deadline) throw new IllegalStateException("the broker did not start");
                    Thread.sleep(200);
                }
            }
        }
    }

    static String log4jConfig(Path file, String[] infoLoggers) {
        StringBuilder b = new StringBuilder();
        b.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Configuration status=\"WARN\">\n  <Appenders>\n");
        b.append("    <File name=\"f\" fileName=\"").append(file).append("\" append=\"true\">\n");
        b.append("      <PatternLayout pattern=\"[%d{yyyy-MM-dd HH:mm:ss,SSS}] %p %m (%c)%n\"/>\n    </File>\n  </Appenders>\n  <Loggers>\n");
        for (String l : infoLoggers) {
            b.append("    <Logger name=\"").append(l).append("\" level=\"INFO\"/>\n");
        }
        b.append("    <Root level=\"WARN\"><AppenderRef ref=\"f\"/></Root>\n  </Loggers>\n</Configuration>\n");
        return b.toString();
    }

    Admin admin() {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap());
        p.put("request.timeout.ms", "10000");
        p.put("default.api.timeout.ms", "15000");
        return Admin.create(p);
    }

    private final Map<Integer, JsonNode> memberGroup = new HashMap<>();
    private final Map<Integer, Integer> memberStart = new HashMap<>();
    private final Map<Integer, Boolean> memberStatic = new HashMap<>();

    private Proc launch(int index, boolean isStatic) throws Exception {
        JsonNode g = memberGroup.get(index);
        JsonNode cfg = g.path("config");
        String groupId = g.get("groupId").asText();
        ObjectNode spec = JSON.createObjectNode();
        spec.put("name", "c" + index);
        ObjectNode props = spec.putObject("props");
        props.put("bootstrap.servers", bootstrap());
        props.put("group.id", groupId);
        props.put("client.id", "consumer-" + groupId + "-" + index);
        boolean consumerProtocol = cfg.path("group.protocol").asText("classic").equals("consumer");
        Iterator<Map.Entry<String, JsonNode>> it = cfg.fields();
        while (it.hasNext()) {
            var e = it.next();
            String k = e.getKey();
            if (k.equals("topics") || k.equals("processing.ms.per.record") || k.startsWith("simulated.")) continue;
            if (k.equals("partition.assignment.strategy")) {
                List<String> cls = new ArrayList<>();
                e.getValue().forEach(x -> cls.add(assignorClass(x.asText())));
                props.put(k, String.join(",", cls));
                continue;
            }
            props.put(k, e.getValue().asText());
        }
        if (consumerProtocol) {
            props.remove("partition.assignment.strategy");
            props.remove("session.timeout.ms");
            props.remove("heartbeat.interval.ms");
        }
        if (isStatic && !props.has("group.instance.id")) props.put("group.instance.id", groupId + "-" + index);
        if (!isStatic) props.remove("group.instance.id");
        spec.set("topics", cfg.path("topics"));
        spec.put("msPerRecord", cfg.path("processing.ms.per.record").asDouble(5));
        spec.put("commitMode", cfg.path("simulated.commit.mode").asText("none"));
        Path specFile = work.resolve("member-c" + index + "-" + System.nanoTime() + ".json");
        Files.writeString(specFile, spec.toString());
        Path log4j = work.resolve("member-log4j2-c" + index + ".xml");
        Files.writeString(log4j, log4jConfig(work.resolve("c" + index + ".log"), new String[] {
            "org.apache.kafka.clients.consumer.internals"}));
        Process p = java("-Xmx128m", log4j.toString(), List.of(Member.class.getName(), specFile.toString()), null);
        return new Proc(index, p);
    }

    private static String assignorClass(String name) {
        return switch (name) {
            case "range" -> "org.apache.kafka.clients.consumer.RangeAssignor";
            case "roundrobin" -> "org.apache.kafka.clients.consumer.RoundRobinAssignor";
            case "sticky" -> "org.apache.kafka.clients.consumer.StickyAssignor";
            case "cooperative-sticky" -> "org.apache.kafka.clients.consumer.CooperativeStickyAssignor";
            default -> throw new IllegalArgumentException("assignor " + name + " has no Kafka class");
        };
    }

    private void standby(int index, boolean isStatic) throws Exception {
        standby.computeIfAbsent(index, k -> new ArrayDeque<>()).add(launch(index, isStatic));
    }

    private void startMember(int index) {
        Deque<Proc> q = standby.get(index);
        Proc p = q == null ? null : q.poll();
        if (p == null) {
            note("no process ready for c" + index);
            return;
        }
        live.put(index, p);
        p.send("start " + t0);
        note("c" + index + " started (pid " + p.process.pid() + ")");
    }

    private void signal(Proc p, String sig) {
        try {
            new ProcessBuilder("kill", "-" + sig, Long.toString(p.process.pid())).start().waitFor();
        } catch (Exception e) {
            note("kill -" + sig + " failed: " + e);
        }
    }

    private void fault(JsonNode f, Admin a, Timer timer) throws Exception {
        String type = f.get("type").asText();
        int c = f.path("consumer").asInt(-1);
        Proc p = c < 0 ? null : live.get(c);
        note("fault " + f);
        switch (type) {
            case "crashConsumer" -> {
                if (p != null) {
                    p.process.destroyForcibly();
                    live.remove(c);
                }
            }
            case "restartConsumer", "restartConsumerAs" -> startMember(c);
            case "closeConsumer" -> { if (p != null) p.send("close"); }
            case "closeConsumerWithOptions" -> { if (p != null) p.send("close " + f.get("operation").asText()); }
            case "pauseConsumer" -> {
                if (p != null) {
                    signal(p, "STOP");
                    timer.schedule(new TimerTask() {
                        @Override
                        public void run() {
                            signal(p, "CONT");
                            note("c" + c + " resumed");
                        }
                    }, f.get("durationMs").asLong());
                }
            }
            case "slowProcessing" -> { if (p != null) p.send("slow " + f.get("msPerRecord").asText()); }
            case "changeSubscription" -> {
                List<String> ts = new ArrayList<>();
                f.get("topics").forEach(x -> ts.add(x.asText()));
                if (p != null) p.send("subscribe " + String.join(",", ts));
            }
            case "addConsumer" -> startMember(addedIndex.poll());
            case "addPartitions" -> {
                String t = f.get("topic").asText();
                int n = f.get("count").asInt();
                a.createPartitions(Map.of(t, NewPartitions.increaseTo(n))).all().get(30, TimeUnit.SECONDS);
                partitions.put(t, n);
            }
            default -> throw new IllegalArgumentException("fault " + type + " is not supported by the harness");
        }
    }

    private final Deque<Integer> addedIndex = new ArrayDeque<>();

    private void pollAdmin(Admin a, List<String> groups) {
        Map<String, String> last = new HashMap<>();
        while (!Thread.currentThread().isInterrupted()) {
            try {
                var res = a.describeConsumerGroups(groups).all().get(5, TimeUnit.SECONDS);
                for (ConsumerGroupDescription d : res.values()) {
                    ObjectNode o = JSON.createObjectNode();
                    o.put("group", d.groupId());
                    o.put("type", String.valueOf(d.type()));
                    o.put("state", String.valueOf(d.groupState()));
                    o.put("assignor", d.partitionAssignor());
                    d.groupEpoch().ifPresent(x -> o.put("groupEpoch", x));
                    d.targetAssignmentEpoch().ifPresent(x -> o.put("assignmentEpoch", x));
                    ArrayNode ms = o.putArray("members");
                    List<MemberDescription> sorted = new ArrayList<>(d.members());
                    sorted.sort(Comparator.comparing(MemberDescription::clientId));
                    for (MemberDescription m : sorted) {
                        ObjectNode mo = ms.addObject();
                        mo.put("clientId", m.clientId());
                        mo.put("memberId", m.consumerId());
                        m.groupInstanceId().ifPresent(x -> mo.put("instanceId", x));
                        m.memberEpoch().ifPresent(x -> mo.put("memberEpoch", x));
                        ArrayNode as = mo.putArray("assignment");
                        m.assignment().topicPartitions().stream().map(tp -> tp.topic() + "-" + tp.partition())
                                .sorted(Member::comparePartition).forEach(as::add);
                    }
                    String key = o.toString();
                    if (!key.equals(last.get(d.groupId()))) {
                        last.put(d.groupId(), key);
                        o.put("t", now());
                        admin.add(o);
                    }
                }
                Thread.sleep(250);
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                try {
                    Thread.sleep(250);
                } catch (InterruptedException ie) {
                    return;
                }
            }
        }
    }

    private void warmUp(Admin a) throws Exception {
        long start = System.currentTimeMillis();
        a.createTopics(List.of(new NewTopic("groupscope-warmup", 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap());
        p.put("group.id", "groupscope-warmup");
        p.put("group.protocol", "consumer");
        p.put("key.deserializer", org.apache.kafka.common.serialization.ByteArrayDeserializer.class.getName());
        p.put("value.deserializer", org.apache.kafka.common.serialization.ByteArrayDeserializer.class.getName());
        try (var c = new org.apache.kafka.clients.consumer.KafkaConsumer<byte[], byte[]>(p)) {
            c.subscribe(List.of("groupscope-warmup"));
            long deadline = System.currentTimeMillis() + 30_000;
            while (c.assignment().isEmpty() && System.currentTimeMillis() < deadline) c.poll(Duration.ofMillis(100));
        }
        note("warmed up the broker's consumer-protocol path in " + (System.currentTimeMillis() - start) + " ms");
    }

    private void produce(KafkaProducer<byte[], byte[]> producer, Map<String, Double> rates, long tick) {
        for (var e : rates.entrySet()) {
            int n = partitions.getOrDefault(e.getKey(), 0);
            long due = (long) Math.floor(e.getValue() * tick / 10.0) - (long) Math.floor(e.getValue() * (tick - 1) / 10.0);
            for (int pIdx = 0; pIdx < n; pIdx++) {
                for (long i = 0; i < due; i++) {
                    producer.send(new ProducerRecord<>(e.getKey(), pIdx, null, new byte[8]));
                }
            }
        }
    }

    void stopAll() {
        for (Proc p : live.values()) p.process.destroyForcibly();
        for (Deque<Proc> q : standby.values()) for (Proc p : q) p.process.destroyForcibly();
        if (broker != null && broker.isAlive()) {
            broker.destroy();
            try {
                if (!broker.waitFor(15, TimeUnit.SECONDS)) broker.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                broker.destroyForcibly();
            }
        }
    }

    private ObjectNode run() throws Exception {
        long setup = System.currentTimeMillis();
        startBroker();
        note("broker up on 127.0.0.1:" + port + " after " + (System.currentTimeMillis() - setup) + " ms");
        List<String> groups = new ArrayList<>();
        Map<String, Double> rates = new HashMap<>();
        try (Admin a = admin()) {
            List<NewTopic> topics = new ArrayList<>();
            for (JsonNode t : scenario.path("topics")) {
                topics.add(new NewTopic(t.get("name").asText(), t.get("partitions").asInt(), (short) 1));
                partitions.put(t.get("name").asText(), t.get("partitions").asInt());
                rates.put(t.get("name").asText(), t.path("recordsPerSec").asDouble(10));
            }
            a.createTopics(topics).all().get(30, TimeUnit.SECONDS);
            // Members: initial ones in group order, then one per addConsumer fault; a standby
            // process for each restart.
            int index = 0;
            Map<String, JsonNode> byGroupId = new HashMap<>();
            for (JsonNode g : scenario.path("groups")) {
                groups.add(g.get("groupId").asText());
                byGroupId.putIfAbsent(g.get("groupId").asText(), g);
                int stagger = g.path("startStaggerMs").asInt(300);
                for (int i = 0; i < g.get("consumers").asInt(); i++) {
                    index++;
                    memberGroup.put(index, g);
                    memberStart.put(index, i * stagger);
                    memberStatic.put(index, g.path("staticMembers").asBoolean(false));
                }
            }
            for (JsonNode f : scenario.path("faults")) {
                JsonNode ff = f.get("fault");
                if (ff.get("type").asText().equals("addConsumer")) {
                    index++;
                    JsonNode g = byGroupId.get(ff.get("group").asText());
                    memberGroup.put(index, g);
                    memberStatic.put(index, g.path("staticMembers").asBoolean(false));
                    addedIndex.add(index);
                }
            }
            for (var e : memberGroup.entrySet()) standby(e.getKey(), memberStatic.get(e.getKey()));
            for (JsonNode f : scenario.path("faults")) {
                JsonNode ff = f.get("fault");
                String type = ff.get("type").asText();
                if (type.equals("restartConsumer")) standby(ff.get("consumer").asInt(), memberStatic.get(ff.get("consumer").asInt()));
                if (type.equals("restartConsumerAs")) standby(ff.get("consumer").asInt(), ff.get("static").asBoolean());
            }
            // The broker's first KIP-848 heartbeat runs cold code (the first target assignment
            // took 133 ms, the first heartbeat 800 ms): a throwaway group warms it up first.
            boolean kip848 = false;
            for (JsonNode g : scenario.path("groups")) {
                kip848 |= g.path("config").path("group.protocol").asText("classic").equals("consumer");
            }
            if (kip848) warmUp(a);
            // The group coordinator's partition exists and is loaded before the clock starts.
            try {
                a.describeConsumerGroups(groups).all().get(60, TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException e) {
                // GroupIdNotFound: the coordinator answered, so it is loaded.
            }
            long deadline = System.currentTimeMillis() + 120_000;
            for (Deque<Proc> q : standby.values()) {
                for (Proc p : q) {
                    while (!p.ready) {
                        if (!p.process.isAlive()) throw new IllegalStateException("member process c" + p.index + " died at launch; see " + work);
                        if (System.currentTimeMillis() > deadline) throw new IllegalStateException("member processes did not start");
                        Thread.sleep(50);
                    }
                }
            }
            note("setup took " + (System.currentTimeMillis() - setup) + " ms");
            t0 = System.currentTimeMillis() + 300;
            Timer timer = new Timer("scenario", true);
            Thread poller = new Thread(() -> pollAdmin(a, groups), "admin");
            poller.setDaemon(true);
            Properties pp = new Properties();
            pp.put("bootstrap.servers", bootstrap());
            pp.put("linger.ms", "5");
            pp.put("acks", "1");
            KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(pp, new ByteArraySerializer(), new ByteArraySerializer());
            for (var e : memberStart.entrySet()) {
                int i = e.getKey();
                timer.schedule(new TimerTask() {
                    @Override
                    public void run() {
                        startMember(i);
                    }
                }, new Date(t0 + e.getValue()));
            }
            for (JsonNode f : scenario.path("faults")) {
                JsonNode ff = f.get("fault");
                timer.schedule(new TimerTask() {
                    @Override
                    public void run() {
                        try {
                            fault(ff, a, timer);
                        } catch (Exception e) {
                            note("fault failed: " + e);
                        }
                    }
                }, new Date(t0 + f.get("at").asLong()));
            }
            while (System.currentTimeMillis() < t0) Thread.sleep(5);
            poller.start();
            long tick = 0;
            while (now() < until) {
                tick++;
                produce(producer, rates, tick);
                long next = t0 + tick * 100;
                long s = next - System.currentTimeMillis();
                if (s > 0) Thread.sleep(s);
            }
            note("until reached; asking for reports");
            for (Proc p : live.values()) p.send("report");
            Thread.sleep(1500);
            poller.interrupt();
            timer.cancel();
            producer.close(Duration.ofSeconds(2));
        } finally {
            stopAll();
        }
        ObjectNode out = JSON.createObjectNode();
        out.put("until", until);
        ArrayNode ev = out.putArray("events");
        List<ObjectNode> sorted = new ArrayList<>(events);
        sorted.sort(Comparator.comparingLong(o -> o.path("t").asLong()));
        sorted.forEach(ev::add);
        ArrayNode ad = out.putArray("admin");
        admin.forEach(ad::add);
        ArrayNode hn = out.putArray("harness");
        harness.forEach(hn::add);
        out.put("work", work.toString());
        return out;
    }

    public static void main(String[] args) throws Exception {
        JsonNode file = JSON.readTree(new File(args[0]));
        Path work = Path.of(args[2]);
        Files.createDirectories(work);
        Runner r = new Runner(file, work);
        ObjectNode out = r.run();
        Files.writeString(Path.of(args[1]), JSON.writerWithDefaultPrettyPrinter().writeValueAsString(out));
        System.exit(0);
    }
}
