/** A class in the default (unnamed) package: JaCoCo reports its package name as "". */
public class Tool {
    public static void main(String[] args) {
        int n = args.length;
        if (n == 0) {
            System.out.println("no args");
        } else {
            System.out.println(n + " args");
        }
    }
}
